/**
 * Writes nodes/WaSessionGateway/properties.generated.json from the gateway's OpenAPI document,
 * built from the route declarations as /openapi.json serves it (no server needed).
 * Run by `npm run build` here; test/integrations/n8n/properties.test.ts fails when the file
 * is not what this would write.
 */
import { writeFileSync } from 'node:fs'
import { signedMediaRoute } from '../../../src/http/routes/media/signed'
import { v1Declarations } from '../../../src/http/routes/v1/declarations'
import { buildOpenApiDocument } from '../../../src/openapi/document'
import { generateProperties, type OpenApiDocument } from './generate-properties'

export const GENERATED_PATH = new URL('../nodes/WaSessionGateway/properties.generated.json', import.meta.url)

export function gatewayDocument(): OpenApiDocument {
  return JSON.parse(JSON.stringify(buildOpenApiDocument([...v1Declarations, signedMediaRoute])))
}

export const generatedText = () => `${JSON.stringify(generateProperties(gatewayDocument()), null, 2)}\n`

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, '/'))) {
  writeFileSync(GENERATED_PATH, generatedText())
}
