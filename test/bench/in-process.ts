/**
 * In-process `app.request()` cost per request: `/health`, authed `/v1/workspace` and authed
 * `/v1/session/all` (10 sessions in the workspace), against a bare Hono route in the same process.
 * The gateway logs at `info` to /dev/null, as `npm start` logs, so the request log is in the figure.
 */
import { openSync } from 'node:fs'
import { join } from 'node:path'
import { Hono } from 'hono'
import pino from 'pino'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { createGateway } from '../../src/gateway'
import { createLogger } from '../../src/logger'
import { seedWorkspace } from './seed'
import { tempDir } from '../support/temp-dir'

export interface InProcessFigures {
  bareUs: number
  healthUs: number
  workspaceUs: number
  sessionListUs: number
}

/** Median over `rounds` of the mean µs per call over `perRound` sequential calls. */
async function perRequestUs(call: () => Response | Promise<Response>, perRound: number, rounds = 7): Promise<number> {
  for (let i = 0; i < perRound; i++) await call() // warm-up: JIT, router build, statement caches
  const means: number[] = []
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint()
    for (let i = 0; i < perRound; i++) {
      const response = await call()
      if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`)
    }
    means.push(Number(process.hrtime.bigint() - started) / 1000 / perRound)
  }
  return means.sort((a, b) => a - b)[Math.floor(rounds / 2)]!
}

export async function measureInProcess({ quick = false } = {}): Promise<InProcessFigures> {
  const n = quick ? 1_000 : 5_000
  const dir = tempDir()
  const database = await openDatabase(join(dir.path, 'bench.db'), { checkpointInBackground: true })
  const logger = createLogger('info', pino.destination({ dest: openSync('/dev/null', 'w'), sync: false }))
  const gateway = createGateway({ database, logger, config: { rateLimitPerMinute: 0 } })
  try {
    const { key } = seedWorkspace(database, 10)
    const bare = new Hono().get('/health', (c) => c.json({ status: 'ok' }))
    const headers = { authorization: `Bearer ${key}` }
    const app = gateway.app
    return {
      bareUs: await perRequestUs(() => bare.request('/health'), n),
      healthUs: await perRequestUs(() => app.request('/health'), n),
      workspaceUs: await perRequestUs(() => app.request('/v1/workspace', { headers }), n),
      sessionListUs: await perRequestUs(() => app.request('/v1/session/all', { headers }), n),
    }
  } finally {
    await gateway.stop()
    closeDatabase(database)
    dir.cleanup()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureInProcess())
