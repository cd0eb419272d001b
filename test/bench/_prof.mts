import { openSync } from 'node:fs'
import { join } from 'node:path'
import pino from 'pino'
import { openDatabase } from '../../src/db/database'
import { createGateway } from '../../src/gateway'
import { createLogger } from '../../src/logger'
import { seedWorkspace } from './seed'
import { mkdtempSync } from 'node:fs'
const dir = mkdtempSync('/tmp/prof/db-')
const database = await openDatabase(join(dir, 'bench.db'))
const logger = createLogger('info', pino.destination({ dest: openSync('/dev/null', 'w'), sync: false }))
const gateway = createGateway({ database, logger, config: { rateLimitPerMinute: 0 } })
const { key } = seedWorkspace(database, 10)
const headers = { authorization: `Bearer ${key}` }
const path = process.argv[2] ?? '/v1/session/all'
const n = Number(process.argv[3] ?? 50000)
for (let i = 0; i < 5000; i++) await gateway.app.request(path, { headers })
const t = process.hrtime.bigint()
for (let i = 0; i < n; i++) await gateway.app.request(path, { headers })
console.log(path, Number(process.hrtime.bigint() - t) / 1000 / n, 'us')
await gateway.stop()
