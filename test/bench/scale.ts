/**
 * Many sessions in one gateway process (compiled), the simulator in its own. The simulator
 * mints the linked devices (`POST /accounts/mint`: what a QR scan and a first login leave
 * behind) and the bench stores them as the gateway keeps connected sessions, so every start
 * below is a restart: each session logs in through the gateway's real restore path and the real
 * Baileys client, `RESTORE_CONCURRENCY` at a time.
 *
 * First `baseline` sessions (1,000, or N if fewer): start, time until all are connected, RSS and
 * heap after a forced GC. Then, if N is larger, stop, store the rest, start again with all N:
 * the restart time, the most logins at once (the simulator counts them), both processes' CPU
 * over it, RSS and heap after GC, so the marginal memory per session from `baseline` to N; with
 * all N connected, the p99 of authed API requests (another workspace's list, autocannon at a
 * steady 200 requests/s) and what a GET /metrics scrape takes.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { compileGateway } from './build'
import { startGatewayProcess, type GatewayProcess } from './gateway-process'
import { summarizeHeapSnapshot } from './heap-summary'
import { connectInspector, heapAfterGcMb, writeHeapSnapshot } from './inspector'
import { cpuSeconds, firstLine, freePort, rssMb, settledRss, startNode, stop } from './processes'
import { BENCH_SECRET, seedDatabaseFile, seedLinkedSessions } from './seed'
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process'
import { tempDir } from '../support/temp-dir'
import type { MintedDevice } from '../wa-sim/mint'

export interface RestartFigures {
  sessions: number
  /** Gateway start → every session connected (wa_sessions{status="connected"}), s */
  restoreSeconds: number
  /** The most logins under way at once, as the simulator counted them */
  peakLogins: number
  /** CPU over the restore, in cores (1 = one core busy throughout) */
  gatewayCores: number
  simulatorCores: number
  /** RSS 5 s after the last connected (median of five samples), MB */
  rssMb: number
  /** After a forced full GC: RSS and the V8 heap in use, MB */
  rssAfterGcMb: number
  heapAfterGcMb: number
}

export interface ScaleFigures {
  sessions: number
  restoreConcurrency: number
  mintSeconds: number
  baseline: RestartFigures
  /** All N; the same as `baseline` when N is the baseline */
  all: RestartFigures
  /** (RSS after GC at N − at baseline) / (N − baseline), MB per session; and the heap's, KB */
  marginalRssMb: number
  marginalHeapKb: number
  apiP99Ms: number
  apiRequests: number
  apiErrors: number
  /** Webhook events the local receiver took (every session's status changes), and how many failed its signature check */
  webhookEvents: number
  webhookBadSignatures: number
  /** GET /metrics over HTTP with every session connected: median and slowest of 20 scrapes, and the text's size. */
  metricsScrapeP50Ms: number
  metricsScrapeMaxMs: number
  metricsBytes: number
}

const METRICS_TOKEN = 'bench-scale-metrics-token-0123'
const MINT_BATCH = 500

async function metricsText(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${text.slice(0, 200)}`)
  return text
}

/** Times `times` sequential scrapes of the process's /metrics. */
async function scrapeMetrics(port: number, times = 20): Promise<{ p50Ms: number; maxMs: number; bytes: number }> {
  const took: number[] = []
  let bytes = 0
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    bytes = (await metricsText(port)).length
    took.push(performance.now() - started)
  }
  took.sort((a, b) => a - b)
  const round = (ms: number) => Math.round(ms * 10) / 10
  return { p50Ms: round(took[Math.floor(times / 2)]!), maxMs: round(took.at(-1)!), bytes }
}

/** The bench's receiver (webhook-sink.ts) in its own process: sessions' events are delivered, not retried against a dead URL. */
async function startSink(): Promise<{
  url: string
  stats(): Promise<{ unique: number; badSignatures: number }>
  stop(): Promise<void>
}> {
  const child = startNode(['--import', 'tsx', 'test/bench/webhook-sink.ts'], { SINK_SECRET: BENCH_SECRET })
  const { port } = JSON.parse(await firstLine(child, /"port"/)) as { port: number }
  return {
    url: `http://127.0.0.1:${port}/hook`,
    stats: async () =>
      (await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as { unique: number; badSignatures: number },
    stop: () => stop(child),
  }
}

/** Until the outbox is empty: the figures below are for connected sessions at rest, not for a restore's backlog. */
async function waitOutboxDrained(gateway: GatewayProcess, timeoutMs: number): Promise<void> {
  const started = performance.now()
  while (Number(/^wa_webhook_outbox_pending (\d+)/m.exec(await metricsText(gateway.port))?.[1]) > 0) {
    if (performance.now() - started > timeoutMs) throw new Error(`webhook outbox not drained after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** Polls the gateway's own count (a scrape costs it a few ms; a 5,000-session list would cost far more). */
async function waitAllConnected(gateway: GatewayProcess, count: number, timeoutMs: number): Promise<void> {
  const started = performance.now()
  for (;;) {
    const connected = Number(/^wa_sessions\{status="connected"\} (\d+)/m.exec(await metricsText(gateway.port))?.[1])
    if (connected >= count) return
    if (performance.now() - started > timeoutMs)
      throw new Error(`only ${connected} of ${count} sessions connected after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/**
 * The gateway and the simulator each hold a socket per session (plus the database, the API and
 * the inspector) and inherit this process's soft limit: refuse to start a run that would fail
 * part way with EMFILE.
 */
function assertOpenFileLimit(n: number): void {
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]
  const needed = n + 256
  if (soft && soft !== 'unlimited' && Number(soft) < needed)
    throw new Error(`ulimit -n is ${soft}; ${n} sessions need at least ${needed} (ulimit -n ${needed})`)
}

async function mint(sim: SimulatorProcess, count: number): Promise<MintedDevice[]> {
  const devices: MintedDevice[] = []
  while (devices.length < count)
    devices.push(
      ...(await sim.control<MintedDevice[]>('/accounts/mint', { count: Math.min(MINT_BATCH, count - devices.length) })),
    )
  return devices
}

/** Starts the gateway on the stored sessions and measures its restore of all `count`. */
async function restart(
  entry: string,
  env: Record<string, string>,
  sim: SimulatorProcess,
  count: number,
): Promise<{ gateway: GatewayProcess; inspectPort: number; figures: RestartFigures }> {
  await sim.control('/login-stats/reset', {})
  const inspectPort = await freePort()
  const simCpuBefore = cpuSeconds(sim.child.pid!)
  const started = performance.now()
  // SCALE_CPU_PROF=<dir>: a CPU profile of each gateway run, written when it stops
  const profile = process.env.SCALE_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SCALE_CPU_PROF}`] : []
  const gateway = await startGatewayProcess(entry, env, [`--inspect=127.0.0.1:${inspectPort}`, ...profile])
  try {
    await waitAllConnected(gateway, count, 600_000)
    const restoreSeconds = (performance.now() - started) / 1000
    const gatewayCores = cpuSeconds(gateway.child.pid!) / restoreSeconds
    const simulatorCores = (cpuSeconds(sim.child.pid!) - simCpuBefore) / restoreSeconds
    const { peak } = await sim.control<{ peak: number }>('/login-stats')
    const rss = await settledRss(gateway.child.pid!, 5_000)
    const inspector = await connectInspector(inspectPort)
    const heap = await heapAfterGcMb(inspector)
    const rssAfterGc = rssMb(gateway.child.pid!) // before a snapshot, which grows it
    // SCALE_HEAP_SNAPSHOT=<dir>: a heap snapshot of each run once its sessions are connected
    if (process.env.SCALE_HEAP_SNAPSHOT) {
      const path = join(process.env.SCALE_HEAP_SNAPSHOT, `scale-${count}.heapsnapshot`)
      await writeHeapSnapshot(inspector, path)
      const { totalMb, groups } = summarizeHeapSnapshot(path)
      console.log(`heap snapshot of ${count} sessions (${totalMb} MB): ${path}`)
      for (const g of groups)
        console.log(`  ${String(g.selfMb).padStart(8)} MB ${String(g.count).padStart(9)}  ${g.name}`)
    }
    inspector.close()
    return {
      gateway,
      inspectPort,
      figures: {
        sessions: count,
        restoreSeconds,
        peakLogins: peak,
        gatewayCores,
        simulatorCores,
        rssMb: rss,
        rssAfterGcMb: rssAfterGc,
        heapAfterGcMb: heap,
      },
    }
  } catch (error) {
    await gateway.stop()
    throw error
  }
}

export async function measureScale(
  n: number,
  { restoreConcurrency = 20, baseline = Math.min(1_000, n) } = {},
): Promise<ScaleFigures> {
  assertOpenFileLimit(n)
  const sim = await startSimulatorProcess()
  const sink = await startSink()
  const dir = tempDir('bench-scale-')
  const compiled = await compileGateway()
  const env = {
    DATABASE_PATH: join(dir.path, 'gateway.db'),
    WA_SIMULATOR: sim.controlUrl,
    RESTORE_CONCURRENCY: String(restoreConcurrency),
    METRICS_TOKEN,
    ALLOW_PRIVATE_ADDRESSES: 'true', // the receiver is on loopback
    WEBHOOK_ALLOW_HTTP: 'true',
  }
  let gateway: GatewayProcess | undefined
  try {
    const { key, loadWorkspaceId } = await seedDatabaseFile(env.DATABASE_PATH)
    const minting = performance.now()
    const devices = await mint(sim, n)
    await seedLinkedSessions(env.DATABASE_PATH, loadWorkspaceId, devices.slice(0, baseline), sink.url)
    const mintSeconds = (performance.now() - minting) / 1000

    let run = await restart(compiled.entry, env, sim, baseline)
    gateway = run.gateway
    const first = run.figures
    if (n > baseline) {
      await gateway.stop()
      gateway = undefined
      await seedLinkedSessions(env.DATABASE_PATH, loadWorkspaceId, devices.slice(baseline), sink.url)
      run = await restart(compiled.entry, env, sim, n)
      gateway = run.gateway
    }
    const all = run.figures
    await waitOutboxDrained(gateway, 300_000)
    const scrape = await scrapeMetrics(gateway.port)
    // SCALE_STEADY_PROF=<file.cpuprofile>: the gateway's CPU profile while the API is under load
    const steadyProfile = process.env.SCALE_STEADY_PROF ? await connectInspector(run.inspectPort) : undefined
    await steadyProfile?.call('Profiler.enable')
    await steadyProfile?.call('Profiler.start')
    const load = await autocannon({
      url: `http://127.0.0.1:${gateway.port}/v1/session/all`,
      headers: { authorization: `Bearer ${key}` },
      connections: 8,
      overallRate: 200,
      duration: 10,
    })
    if (steadyProfile) {
      const { profile } = await steadyProfile.call<{ profile: unknown }>('Profiler.stop')
      writeFileSync(process.env.SCALE_STEADY_PROF!, JSON.stringify(profile))
      steadyProfile.close()
    }
    const delivered = await sink.stats()
    const added = n - baseline
    return {
      sessions: n,
      restoreConcurrency,
      mintSeconds,
      baseline: first,
      all,
      marginalRssMb: added > 0 ? (all.rssAfterGcMb - first.rssAfterGcMb) / added : 0,
      marginalHeapKb: added > 0 ? ((all.heapAfterGcMb - first.heapAfterGcMb) * 1024) / added : 0,
      apiP99Ms: load.latency.p99,
      apiRequests: load.requests.total,
      apiErrors: load.errors + load.non2xx,
      webhookEvents: delivered.unique,
      webhookBadSignatures: delivered.badSignatures,
      metricsScrapeP50Ms: scrape.p50Ms,
      metricsScrapeMaxMs: scrape.maxMs,
      metricsBytes: scrape.bytes,
    }
  } finally {
    await gateway?.stop()
    await sink.stop()
    compiled.cleanup()
    dir.cleanup()
    await sim.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node --import tsx test/bench/scale.ts [sessions] [restore concurrency]
  const figures = await measureScale(Number(process.argv[2] ?? 1000), {
    restoreConcurrency: Number(process.argv[3] ?? 20),
  })
  console.log(JSON.stringify(figures, null, 2))
}
