import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Hono } from 'hono'
import type { buildOpenApiDocument } from '../../openapi/document'
import { embeddedFiles } from '../../runtime/embedded'
import type { AppEnv } from '../env'

/** Swagger UI files served from the installed package (or the binary): the page renders with no network. */
const assets = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
} as const

// Relative URLs keep the page working when the gateway is mounted under a prefix (e.g. /wa).
const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Messaging Session Service — API reference</title>
  <link rel="stylesheet" href="./docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="./docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: './openapi.json', dom_id: '#swagger-ui', deepLinking: true })
  </script>
</body>
</html>`

const DOCUMENT_PATH = '/openapi.json'

/** `document` is built on first request (not at start) and then kept. */
export function docsRoutes(document: () => ReturnType<typeof buildOpenApiDocument>) {
  // Resolved on the first asset request: a Worker bundle has no import.meta.url to start from.
  let resolveAsset: ((id: string) => string) | undefined
  let built: ReturnType<typeof buildOpenApiDocument> | undefined
  const files = new Map<string, Promise<Buffer>>()

  return new Hono<AppEnv>()
    .get(DOCUMENT_PATH, (c) => {
      built ??= document()
      // The server is where we are mounted: `/` alone, `/wa` under a parent app's `/wa`.
      const mountPoint = c.req.path.slice(0, -DOCUMENT_PATH.length) || '/'
      // Typed as a plain object: the document's own type is zod-openapi's and is not part of our API.
      return c.json({ ...built, servers: [{ url: mountPoint }] } as Record<string, unknown>)
    })
    .get('/docs', (c) => c.html(page))
    .get('/docs/assets/:file', async (c) => {
      const name = c.req.param('file')
      if (!Object.hasOwn(assets, name)) return c.notFound()
      const file = name as keyof typeof assets
      resolveAsset ??= createRequire(import.meta.url).resolve
      const path = embeddedFiles()?.swaggerUi[file] ?? resolveAsset(`swagger-ui-dist/${file}`)
      if (!files.has(file)) files.set(file, readFile(path))
      const body = await files.get(file)!
      return c.body(new Uint8Array(body), 200, {
        'content-type': assets[file],
        'cache-control': 'public, max-age=86400',
      })
    })
}
