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
import { sqliteAuthStore } from '../../src/db/auth-store'
import { createStatementCache } from '../../src/perf/prepared'
import type { MintedDevice } from '../wa-sim/mint'

/** A secret that signs (Standard Webhooks: base64 after the prefix); no receiver checks it. */
export const BENCH_SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`

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
        webhookSecret: BENCH_SECRET,
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
export async function seedDatabaseFile(
  path: string,
  offlineSessions = 10,
): Promise<{ key: string; loadKey: string; loadWorkspaceId: string }> {
  const database = await openDatabase(path)
  try {
    migrate(database)
    const { key } = seedWorkspace(database, offlineSessions)
    const ctx = { db: database, clock: systemClock, logger: silentLogger(), config: resolveConfig({}) }
    const load = createWorkspace(ctx, { name: 'load', plan: 'paid' })
    return { key, loadKey: createApiKey(ctx, { workspace: load.id }).key, loadWorkspaceId: load.id }
  } finally {
    closeDatabase(database)
  }
}

/**
 * Sessions for devices the simulator minted (`POST /accounts/mint`), stored as the gateway left
 * them when it last ran connected: the session row and Baileys' auth state in `wa_auth`. The
 * gateway at its next start logs every one in through its restore path.
 */
export async function seedLinkedSessions(
  path: string,
  workspaceId: string,
  devices: MintedDevice[],
  webhookUrl = 'https://hooks.invalid/bench',
): Promise<void> {
  const database = await openDatabase(path)
  try {
    const store = sqliteAuthStore({ db: database, statements: createStatementCache(database) })
    const now = new Date()
    database.transaction(() => {
      for (const device of devices) {
        const id = `ses_minted${device.phone}`
        database
          .insert(sessions)
          .values({
            id,
            workspaceId,
            name: `minted-${device.phone}`,
            status: 'connected',
            number: device.phone,
            lid: device.lid,
            webhookUrl,
            webhookMessages: true,
            webhookSecret: BENCH_SECRET,
            createdAt: now,
            updatedAt: now,
          })
          .run()
        store.writeCreds(id, device.creds)
        for (const [category, byId] of Object.entries(device.keys))
          for (const [keyId, value] of Object.entries(byId)) store.writeKey(id, category, keyId, value)
      }
    })
  } finally {
    closeDatabase(database)
  }
}
