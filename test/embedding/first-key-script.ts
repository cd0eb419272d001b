/**
 * docs/embedding.md's "first workspace and key" script, word for word but for the import (the
 * package's entry is src/index.ts here): run by test/embedding/first-key.test.ts in a process
 * of its own, so that the test also sees it exit by itself.
 */
import { closeDatabase, createGateway, loadConfig, openDatabase } from '../../src/index'

const config = loadConfig(process.env) // ADMIN_API_KEY set: at least 32 characters
const database = await openDatabase(config.databasePath)
const wa = createGateway({ database, config })
const admin = async (path: string, body: unknown) => {
  const response = await wa.app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.adminApiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as { key?: string }
}
await admin('/v1/admin/workspaces', { name: 'acme', plan: 'paid' })
const { key } = await admin('/v1/admin/keys', { workspace: 'acme' })
console.log(key) // shown only here: store it
await wa.stop()
closeDatabase(database)
