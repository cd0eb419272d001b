/**
 * Writes the nodes' generated files from the gateway's OpenAPI document, built from the route
 * declarations as /openapi.json serves it (no server needed): the action node's fields and the
 * trigger's event types. Run by `npm run build` here; test/integrations/n8n/properties.test.ts
 * fails when a file is not what this would write.
 */
import { writeFileSync } from 'node:fs'
import { signedMediaRoute } from '../../../src/http/routes/media/signed'
import { v1Declarations } from '../../../src/http/routes/v1/declarations'
import { buildOpenApiDocument } from '../../../src/openapi/document'
import { generateProperties, type OpenApiDocument } from './generate-properties'

export function gatewayDocument(): OpenApiDocument {
  return JSON.parse(JSON.stringify(buildOpenApiDocument([...v1Declarations, signedMediaRoute])))
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/** Each generated file: where it goes and what it holds. */
export function generatedFiles(): { path: URL; text: string }[] {
  const { eventTypes, ...actionNode } = generateProperties(gatewayDocument())
  return [
    { path: new URL('../nodes/WaSessionGateway/properties.generated.json', import.meta.url), text: json(actionNode) },
    {
      path: new URL('../nodes/WaSessionGatewayTrigger/events.generated.json', import.meta.url),
      text: json(eventTypes),
    },
  ]
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, '/'))) {
  for (const file of generatedFiles()) writeFileSync(file.path, file.text)
}
