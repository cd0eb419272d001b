/**
 * Requests per second over HTTP (autocannon, 32 connections): authed `GET /v1/session/all`
 * (10 sessions) on the gateway, compiled as `npm start` runs it (logging at info to a pipe
 * that is drained, rate limit on but high), against a bare Hono app (`reference/bare-hono.mjs`)
 * on the same runtime: its `GET /health` (the target's reference) and a route answering the
 * very body the gateway answered (what the gateway adds beyond the bytes it sends).
 * Each server runs in its own process; the runs alternate, and the medians are compared.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { compileGateway } from './build'
import { drain, listeningPort, median, startNode, stop } from './processes'
import { seedDatabaseFile } from './seed'
import { tempDir } from '../support/temp-dir'

export interface ThroughputFigures {
  bareRps: number
  bareSameBodyRps: number
  sessionListRps: number
  sessionListP99Ms: number
  bodyBytes: number
}

async function run(url: string, headers: Record<string, string>, seconds: number) {
  const result = await autocannon({ url, connections: 32, duration: seconds, headers })
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return { rps: result.requests.average, p99Ms: result.latency.p99 }
}

export async function measureThroughput({ quick = false } = {}): Promise<ThroughputFigures> {
  const seconds = quick ? 4 : 10
  const rounds = quick ? 1 : 3
  const dir = tempDir('bench-throughput-')
  const compiled = await compileGateway()
  const databasePath = join(dir.path, 'gateway.db')
  const { key } = await seedDatabaseFile(databasePath)
  const gateway = startNode([compiled.entry, 'serve'], {
    DATABASE_PATH: databasePath,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '1000000000',
  })
  let bare: ReturnType<typeof startNode> | undefined
  try {
    const gatewayPort = await listeningPort(gateway)
    drain(gateway)
    const listUrl = `http://127.0.0.1:${gatewayPort}/v1/session/all`
    const auth = { authorization: `Bearer ${key}` }
    const body = await (await fetch(listUrl, { headers: auth })).text()
    const bodyFile = join(dir.path, 'session-list.json')
    writeFileSync(bodyFile, body)
    bare = startNode([join('test/bench/reference/bare-hono.mjs')], { BODY_FILE: bodyFile })
    const barePort = await listeningPort(bare)
    drain(bare)
    const bareUrl = `http://127.0.0.1:${barePort}/health`
    const sameBodyUrl = `http://127.0.0.1:${barePort}/same-body`
    await run(bareUrl, {}, 1) // warm-up
    await run(sameBodyUrl, {}, 1)
    await run(listUrl, auth, 1)
    const bareRuns: number[] = []
    const sameBodyRuns: number[] = []
    const listRuns: { rps: number; p99Ms: number }[] = []
    for (let i = 0; i < rounds; i++) {
      bareRuns.push((await run(bareUrl, {}, seconds)).rps)
      listRuns.push(await run(listUrl, auth, seconds))
      sameBodyRuns.push((await run(sameBodyUrl, {}, seconds)).rps)
    }
    return {
      bareRps: median(bareRuns),
      bareSameBodyRps: median(sameBodyRuns),
      sessionListRps: median(listRuns.map((r) => r.rps)),
      sessionListP99Ms: median(listRuns.map((r) => r.p99Ms)),
      bodyBytes: Buffer.byteLength(body),
    }
  } finally {
    await Promise.all([stop(bare), stop(gateway)])
    compiled.cleanup()
    dir.cleanup()
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await measureThroughput({ quick: process.argv.includes('--quick') }))
