// Run as `node --import tsx test/support/lazy-load-probe.ts`: builds a gateway with the real
// engine and media tools, serves /health and two authed routes, and prints which of the heavy
// packages were loaded, as one JSON line. (A child process: vitest's own loader would hide it.)
import { register } from 'node:module'
import { MessageChannel } from 'node:worker_threads'

const loaded: string[] = []
const { port1, port2 } = new MessageChannel()
port1.on('message', (url: string) => loaded.push(url))
port1.unref()
register('./load-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] })

const { mkdtempSync, rmSync } = await import('node:fs')
const { tmpdir } = await import('node:os')
const { join } = await import('node:path')
const { openDatabase, closeDatabase } = await import('../../src/db/database')
const { createGateway } = await import('../../src/gateway')
const { silentLogger } = await import('../../src/logger')
const { createWorkspace } = await import('../../src/services/workspaces')
const { createApiKey } = await import('../../src/services/api-keys')

const dir = mkdtempSync(join(tmpdir(), 'lazy-load-'))
const database = await openDatabase(join(dir, 'gateway.db'))
const gateway = createGateway({ database, logger: silentLogger() })
await gateway.start()
const workspace = createWorkspace(gateway.context, { name: 'probe' })
const headers = { authorization: `Bearer ${createApiKey(gateway.context, { workspace: workspace.id }).key}` }
const statuses = [
  (await gateway.app.request('/health')).status,
  (await gateway.app.request('/v1/workspace', { headers })).status,
  (await gateway.app.request('/v1/session/all', { headers })).status,
]
await gateway.stop()
closeDatabase(database)
rmSync(dir, { recursive: true, force: true })
await new Promise((resolve) => setTimeout(resolve, 50)) // let the last reports arrive
const has = (name: string) => loaded.some((url) => url.includes(`/node_modules/${name}/`))
process.stdout.write(
  `${JSON.stringify({ statuses, modules: loaded.length, baileys: has('@whiskeysockets/baileys'), ffmpeg: has('@ffmpeg-installer/ffmpeg'), fileType: has('file-type'), libsignal: has('libsignal') })}\n`,
)
