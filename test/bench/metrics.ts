/**
 * GET /metrics with 1,000 sessions stored: the scrape's cost per call (app.request, in process,
 * after traffic over many routes and statuses filled the HTTP series) against /health, and what
 * /metrics being on costs every other request (authed /v1/workspace, metrics on vs off). The
 * sessions are rows, not sockets: a scrape reads sessions by status and the outbox from SQLite
 * and has no series per session, so connected sockets would not change its work (scale.ts
 * scrapes 1,000 connected ones in the real process too).
 */
import { openSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { sessions } from '../../src/db/schema'
import { sessionStatuses } from '../../src/shared/session-statuses'
import { createGateway } from '../../src/gateway'
import { createLogger } from '../../src/logger'
import { tempDir } from '../support/temp-dir'
import { seedWorkspace } from './seed'

export interface MetricsFigures {
  sessions: number
  scrapeUs: number
  scrapeBytes: number
  healthUs: number
  workspaceMetricsOnUs: number
  workspaceMetricsOffUs: number
}

const TOKEN = 'bench-metrics-token-0123456789'

/**
 * Mean µs per call over `perRound` sequential calls: the median of `rounds` rounds of each
 * call, interleaved (a shared machine's load then hits each alike).
 */
async function perCallUs(
  calls: (() => Response | Promise<Response>)[],
  perRound: number,
  rounds = 9,
): Promise<number[]> {
  for (const call of calls) for (let i = 0; i < Math.min(perRound, 200); i++) await (await call()).arrayBuffer()
  const means: number[][] = calls.map(() => [])
  for (let r = 0; r < rounds; r++) {
    for (const [c, call] of calls.entries()) {
      const started = process.hrtime.bigint()
      for (let i = 0; i < perRound; i++) {
        const response = await call()
        if (response.status !== 200) throw new Error(`status ${response.status}`)
        await response.arrayBuffer()
      }
      means[c]!.push(Number(process.hrtime.bigint() - started) / 1000 / perRound)
    }
  }
  return means.map((list) => list.sort((a, b) => a - b)[Math.floor(rounds / 2)]!)
}

async function gatewayWith(n: number, metricsToken: string | undefined) {
  const dir = tempDir('bench-metrics-')
  const database = await openDatabase(join(dir.path, 'bench.db'), { checkpointInBackground: true })
  const logger = createLogger('info', pino.destination({ dest: openSync('/dev/null', 'w'), sync: false }))
  const gateway = createGateway({ database, logger, config: { rateLimitPerMinute: 0, metricsToken } })
  const { key } = seedWorkspace(database, n)
  // Every status represented, as in a real fleet.
  for (let i = 0; i < n; i++) {
    const status = sessionStatuses[i % sessionStatuses.length]!
    database
      .update(sessions)
      .set({ status })
      .where(eq(sessions.id, `ses_bench${i}`))
      .run()
  }
  const headers = { authorization: `Bearer ${key}` }
  // Traffic over many routes and statuses: the HTTP series a scrape serializes.
  for (let i = 0; i < 2_000; i++) {
    const path = ['/v1/workspace', '/v1/session/all', `/v1/session/ses_bench${i % n}/qr`, '/v1/message/all', '/nope'][
      i % 5
    ]!
    await (await gateway.app.request(path, { headers })).arrayBuffer()
  }
  return {
    gateway,
    headers,
    async close() {
      await gateway.stop()
      closeDatabase(database)
      dir.cleanup()
    },
  }
}

export async function measureMetricsScrape(n = 1_000, { quick = false } = {}): Promise<MetricsFigures> {
  const calls = quick ? 200 : 1_000
  const on = await gatewayWith(n, TOKEN)
  const off = await gatewayWith(n, undefined)
  try {
    const scrape = () => on.gateway.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    const body = await (await scrape()).text()
    const [scrapeUs] = await perCallUs([scrape], Math.max(20, calls / 10))
    const [healthUs] = await perCallUs([() => on.gateway.app.request('/health')], calls)
    const [workspaceMetricsOnUs, workspaceMetricsOffUs] = await perCallUs(
      [
        () => on.gateway.app.request('/v1/workspace', { headers: on.headers }),
        () => off.gateway.app.request('/v1/workspace', { headers: off.headers }),
      ],
      calls * 2,
    )
    return {
      sessions: n,
      scrapeUs: scrapeUs!,
      scrapeBytes: body.length,
      healthUs: healthUs!,
      workspaceMetricsOnUs: workspaceMetricsOnUs!,
      workspaceMetricsOffUs: workspaceMetricsOffUs!,
    }
  } finally {
    await on.close()
    await off.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureMetricsScrape())
