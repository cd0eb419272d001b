/**
 * Many sessions in one gateway process (compiled), the simulator in its own: connect N through
 * the API, then RSS, the p99 of authed API requests while they are connected (autocannon at a
 * steady 200 requests/s), and after a restart (SIGTERM, start again on the same file) how long
 * until all N are connected again and how many logged in at once at most (simulator's count);
 * and what a GET /metrics scrape takes with all N connected.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { compileGateway } from './build'
import { connectSessions, startGatewayProcess, waitConnected, type GatewayProcess } from './gateway-process'
import { settledRss } from './processes'
import { seedDatabaseFile } from './seed'
import { startSimulatorProcess } from './simulator-process'
import { tempDir } from '../support/temp-dir'

export interface ScaleFigures {
  sessions: number
  connectSeconds: number
  rssMb: number
  apiP99Ms: number
  apiRequests: number
  restoreSeconds: number
  restorePeakLogins: number
  restoreConcurrency: number
  /** GET /metrics over HTTP with every session connected: median and slowest of 20 scrapes, and the text's size. */
  metricsScrapeP50Ms: number
  metricsScrapeMaxMs: number
  metricsBytes: number
}

const METRICS_TOKEN = 'bench-scale-metrics-token-0123'

/** Times `times` sequential scrapes of the process's /metrics. */
async function scrapeMetrics(port: number, times = 20): Promise<{ p50Ms: number; maxMs: number; bytes: number }> {
  const took: number[] = []
  let bytes = 0
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${text.slice(0, 200)}`)
    took.push(performance.now() - started)
    bytes = text.length
  }
  took.sort((a, b) => a - b)
  const round = (ms: number) => Math.round(ms * 10) / 10
  return { p50Ms: round(took[Math.floor(times / 2)]!), maxMs: round(took.at(-1)!), bytes }
}

/**
 * The gateway and the simulator each hold a socket per session (plus the database, the API and
 * the pairing's HTTP requests) and inherit this process's soft limit: refuse to start a run
 * that would fail part way with EMFILE.
 */
function assertOpenFileLimit(n: number): void {
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]
  const needed = n + 256
  if (soft && soft !== 'unlimited' && Number(soft) < needed)
    throw new Error(`ulimit -n is ${soft}; ${n} sessions need at least ${needed} (ulimit -n ${needed})`)
}

export async function measureScale(n: number, { restoreConcurrency = 20 } = {}): Promise<ScaleFigures> {
  assertOpenFileLimit(n)
  const sim = await startSimulatorProcess()
  const dir = tempDir('bench-scale-')
  const compiled = await compileGateway()
  const env = {
    DATABASE_PATH: join(dir.path, 'gateway.db'),
    WA_SIMULATOR: sim.controlUrl,
    RESTORE_CONCURRENCY: String(restoreConcurrency),
    METRICS_TOKEN,
    // 50 pairings at once on a shared 2-core machine can take longer than the default 20 s to
    // offer a QR; the bench measures how long connecting takes, it should not fail on it.
    CONNECT_TIMEOUT_MS: '120000',
  }
  try {
    const { key, loadKey } = await seedDatabaseFile(env.DATABASE_PATH)
    let gateway = await startGatewayProcess(compiled.entry, env)
    let restarted: GatewayProcess | undefined
    try {
      const started = performance.now()
      await connectSessions(gateway, loadKey, sim.controlUrl, 0, n, 50)
      await waitConnected(gateway, loadKey, n, 600_000)
      const connectSeconds = (performance.now() - started) / 1000
      const rssMb = await settledRss(gateway.child.pid!, 5_000)
      const scrape = await scrapeMetrics(gateway.port)
      const load = await autocannon({
        url: `http://127.0.0.1:${gateway.port}/v1/session/all`,
        headers: { authorization: `Bearer ${key}` },
        connections: 8,
        overallRate: 200,
        duration: 10,
      })
      await gateway.stop()
      await sim.control('/login-stats/reset', {})
      const restartedAt = performance.now()
      restarted = gateway = await startGatewayProcess(compiled.entry, env)
      await waitConnected(gateway, loadKey, n, 300_000)
      const restoreSeconds = (performance.now() - restartedAt) / 1000
      const { peak } = await sim.control<{ peak: number }>('/login-stats')
      return {
        sessions: n,
        connectSeconds,
        rssMb,
        apiP99Ms: load.latency.p99,
        apiRequests: load.requests.total,
        restoreSeconds,
        restorePeakLogins: peak,
        restoreConcurrency,
        metricsScrapeP50Ms: scrape.p50Ms,
        metricsScrapeMaxMs: scrape.maxMs,
        metricsBytes: scrape.bytes,
      }
    } finally {
      await (restarted ?? gateway).stop()
    }
  } finally {
    compiled.cleanup()
    dir.cleanup()
    await sim.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureScale(Number(process.argv[2] ?? 1000)))
