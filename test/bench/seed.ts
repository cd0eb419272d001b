/** A gateway database for the benches: a paid workspace, its API key and `sessions` offline sessions. */
import { closeDatabase, openDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { sessions } from '../../src/db/schema'
import { silentLogger } from '../../src/logger'
import { resolveConfig } from '../../src/config'
import { systemClock } from '../../src/clock'
import { createApiKey } from '../../src/services/api-keys'
import { createWorkspace } from '../../src/services/workspaces'
import type { GatewayDatabase } from '../../src/db/database'

export function seedWorkspace(database: GatewayDatabase, offlineSessions = 10): { key: string; workspaceId: string } {
  const ctx = { db: database, clock: systemClock, logger: silentLogger(), config: resolveConfig({}) }
  const workspace = createWorkspace(ctx, { name: 'bench', plan: 'paid' })
  const { key } = createApiKey(ctx, { workspace: workspace.id })
  const now = new Date()
  for (let i = 0; i < offlineSessions; i++) {
    database
      .insert(sessions)
      .values({
        id: `ses_bench${i}`,
        workspaceId: workspace.id,
        name: `bench-${i}`,
        status: 'disconnected',
        webhookUrl: 'https://hooks.invalid/x',
        webhookMessages: true,
        webhookSecret: 'whsec_x',
        createdAt: now,
        updatedAt: now,
      })
      .run()
  }
  return { key, workspaceId: workspace.id }
}

/**
 * Creates and seeds the file, then closes it: the gateway under test opens it in its own
 * process. `loadKey` is a second paid workspace's key, for sessions a bench connects.
 */
export async function seedDatabaseFile(path: string, offlineSessions = 10): Promise<{ key: string; loadKey: string }> {
  const database = await openDatabase(path)
  try {
    migrate(database)
    const { key } = seedWorkspace(database, offlineSessions)
    const ctx = { db: database, clock: systemClock, logger: silentLogger(), config: resolveConfig({}) }
    const load = createWorkspace(ctx, { name: 'load', plan: 'paid' })
    return { key, loadKey: createApiKey(ctx, { workspace: load.id }).key }
  } finally {
    closeDatabase(database)
  }
}
