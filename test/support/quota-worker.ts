/**
 * One process racing for the contact-check quota of a workspace in a shared SQLite file:
 * `node --import tsx test/support/quota-worker.ts <db> <workspaceId> <days> <limit> <goFile>`.
 * For each of `days` quota days in turn it tries to reserve `limit` + 1 checks one by one, so
 * every day is a fresh race to the limit. Prints `{"reserved": n, "refused": m}`. Two of these
 * at once prove the reservation is atomic across processes, which one JS thread cannot. It says
 * `ready` once loaded and starts when `goFile` exists, so both start together however slow a
 * loaded machine is.
 */
import { existsSync } from 'node:fs'
import { systemClock } from '../../src/clock'
import { resolveConfig } from '../../src/config'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { GatewayError } from '../../src/errors'
import { silentLogger } from '../../src/logger'
import { quotaWindow, reserveChecks } from '../../src/services/contacts/quota'

const [path, workspaceId, days, limit, goFile] = process.argv.slice(2)
const db = await openDatabase(path!)
const ctx = { db, clock: systemClock, logger: silentLogger(), config: resolveConfig() }
console.log('ready')
while (!existsSync(goFile!)) {
  // spin: both processes start within microseconds of each other
}
let reserved = 0
let refused = 0
for (let day = 0; day < Number(days); day++) {
  const window = quotaWindow(new Date(Date.UTC(2030, 0, 1) + day * 86_400_000), Number(limit))
  for (let i = 0; i <= Number(limit); i++) {
    try {
      reserveChecks(ctx, workspaceId!, 1, window)
      reserved++
    } catch (error) {
      if (!(error instanceof GatewayError) || error.code !== 'daily_limit_exceeded') throw error
      refused++
    }
  }
}
closeDatabase(db)
console.log(JSON.stringify({ reserved, refused }))
