/**
 * A contact's text → `message.received` at a local receiver, N sessions: the gateway compiled in
 * its own process, the simulator in its own (a contact per session sends inside it: POST
 * /bench/contacts/:phone/texts, test/wa-sim/control-bench.ts), the receiver in a third
 * (inbound-sink.ts: every signature verified, each message counted once, order checked per
 * session, latency from the time written in the text). Three runs:
 * - calm: 100 msg/s in all for 4 s, the warm-up; its latency is the reference;
 * - paced: the contacts together at `rate` msg/s for `seconds`: delivered rate, lost, out of
 *   order, latency p50/p99 (the target's row);
 * - burst: each contact sends `burstPerSession` as fast as the simulator can: the most the
 *   gateway delivers, against the simulator's own send rate in the same run (the offered load;
 *   a ratio near 1 would mean the simulator, not the gateway, set the figure).
 * Then the reference: the gateway stops and the same sessions log in as bare Baileys sockets in
 * a process of their own (bare-inbound.ts), which take the same three runs, counting each text
 * as Baileys emits it: what receiving costs with nothing stored or posted.
 * Each process's CPU share (/proc/<pid>/stat) is reported per run.
 */
import { createWriteStream, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createInterface } from 'node:readline'
import { compileGateway } from './build'
import { startGatewayProcess, waitConnected, type GatewayProcess } from './gateway-process'
import { firstLine, startNode, stop } from './processes'
import type { RunReport } from './inbound-runs'
import { seedDatabaseFile } from './seed'
import { startSimulatorProcess, type SimulatorProcess } from './simulator-process'
import { tempDir } from '../support/temp-dir'

interface SinkStats extends RunReport {
  badSignatures: number
  sequenceOutOfOrder: number
}

/** Where a run's messages are counted: the webhook receiver, or the bare sockets themselves. */
interface Counter {
  stats(run: string): Promise<RunReport>
}

interface Burst {
  sent: number
  startedAt: number
  finishedAt: number
}

/** Cores used over a run: CPU seconds (user + system) / wall seconds, per process. */
export interface CpuShares {
  gateway: number
  simulator: number
  receiver: number
}

/** The processes of a run, by name: the first one is the one receiving from WhatsApp. */
type Pids<K extends string> = Record<K, number>

/** One run, as the process receiving from WhatsApp (`K` names the processes measured) took it. */
export interface RunFigures<K extends string> {
  messages: number
  /** Messages delivered (to the receiver; for the bare sockets, emitted by Baileys) / (last arrival − first send). */
  deliveredPerSecond: number
  /** Messages the simulator sent / (its last send − its first). */
  sentPerSecond: number
  lost: number
  duplicates: number
  outOfOrder: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  cpu: Record<K, number>
  /** The receiving process's CPU time (all its threads) over the run / messages delivered: what a loaded machine changes least. */
  cpuMsPerMessage: number
  /**
   * What the receiving process sent to the storage layer over the run (/proc/<pid>/io
   * write_bytes: the database, its WAL, checkpoints) / messages delivered, in KiB: what a commit
   * per message costs a disk (an SD card's wear).
   */
  diskKibPerMessage: number
  /** GET /health, one after another all through the run: the slowest answer (how long the loop was held); the gateway's only */
  healthMaxMs?: number
}

export type InboundRun = RunFigures<keyof CpuShares>
/** The bare sockets' runs: their process, and the simulator. */
export type BareRun = RunFigures<'bare' | 'simulator'>

/** Asks /health again and again until stopped; answers the slowest. */
function probeHealth(port: number): () => Promise<number> {
  let running = true
  let slowest = 0
  const probing = (async () => {
    while (running) {
      const started = performance.now()
      await (await fetch(`http://127.0.0.1:${port}/health`)).arrayBuffer()
      slowest = Math.max(slowest, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })()
  return async () => {
    running = false
    await probing
    return Math.round(slowest)
  }
}

export interface InboundFigures {
  sessions: number
  /** 100 msg/s in all after the sessions connected (the warm-up): the latency at low load. */
  calm: InboundRun
  paced: InboundRun & { targetPerSecond: number }
  burst: InboundRun
  /** The same runs received by bare Baileys sockets with the same sessions (no record, event or webhook): the reference. */
  bare: { calm: BareRun; paced: BareRun & { targetPerSecond: number }; burst: BareRun }
  badSignatures: number
  sequenceOutOfOrder: number
}

const ticks = (pid: number): number => {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12])
}
const TICKS_PER_SECOND = 100
const writtenBytes = (pid: number): number =>
  Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0)

function cpuMeter<K extends string>(pids: Pids<K>) {
  const startedAt = performance.now()
  const start = mapShares(pids, ticks)
  return (): { shares: Record<K, number>; seconds: number } => {
    const seconds = (performance.now() - startedAt) / 1000
    const round = (n: number) => Math.round(n * 100) / 100
    return {
      shares: mapShares(pids, (pid, key) => round((ticks(pid) - start[key]) / TICKS_PER_SECOND / seconds)),
      seconds,
    }
  }
}
const mapShares = <K extends string>(pids: Pids<K>, f: (pid: number, key: K) => number): Record<K, number> =>
  Object.fromEntries(Object.entries<number>(pids).map(([key, pid]) => [key, f(pid, key as K)])) as Record<K, number>

async function startSink() {
  const child = startNode(['--import', 'tsx', 'test/bench/inbound-sink.ts'])
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve((JSON.parse(line) as { port: number }).port),
    )
    child.once('exit', (code) => reject(new Error(`receiver exited (${code}) before it listened`)))
  })
  const url = (path: string) => `http://127.0.0.1:${port}${path}`
  return {
    child,
    url,
    stats: async (run: string) => (await (await fetch(url(`/stats/${run}`))).json()) as SinkStats,
    setSecrets: (secrets: Record<string, string>) =>
      fetch(url('/secrets'), { method: 'POST', body: JSON.stringify(secrets) }),
    stop: () => stop(child),
  }
}
type Sink = Awaited<ReturnType<typeof startSink>>

const accountPhone = (i: number) => `1555081${String(i).padStart(4, '0')}`
const contactPhone = (i: number) => `1555082${String(i).padStart(4, '0')}`

async function connect(gateway: GatewayProcess, key: string, sim: SimulatorProcess, sink: Sink, n: number) {
  const secrets: Record<string, string> = {}
  for (let i = 0; i < n; i++) {
    const response = await gateway.api('/v1/session/connect', key, {
      method: 'POST',
      body: JSON.stringify({
        sessionName: `inbound-${i}`,
        webhookUrl: sink.url(`/s${i}`),
        webhookEvents: ['message.received'],
      }),
    })
    if (response.status !== 200) throw new Error(`connect ${i}: ${response.status} ${await response.text()}`)
    const { qrCode, webhookSecret } = (await response.json()) as { qrCode: string; webhookSecret: string }
    secrets[`/s${i}`] = webhookSecret
    await sim.control('/scan', { qr: qrCode, phone: accountPhone(i) })
  }
  await sink.setSecrets(secrets)
  await waitConnected(gateway, key, n, 120_000)
}

/**
 * Waits until the receiver has `total` of a run, or nothing new came for `idleMs` (then the rest
 * counts as lost): a gateway busy storing a backlog posts nothing for tens of seconds (the note in
 * docs/benchmarks.md), which is late, not lost.
 */
async function waitDelivered(counter: Counter, run: string, total: number, idleMs = 90_000): Promise<RunReport> {
  let last = await counter.stats(run)
  let progressAt = performance.now()
  while (last.unique < total && performance.now() - progressAt < idleMs) {
    await sleep(50)
    const next = await counter.stats(run)
    if (next.unique > last.unique) progressAt = performance.now()
    last = next
  }
  return last
}

/** A run's receiving side: the process taking messages from WhatsApp (`pids[receiving]`), where they are counted, and the /health to probe (the gateway's). */
interface Side<K extends string> {
  pids: Pids<K>
  receiving: NoInfer<K>
  counter: Counter
  healthPort?: number
}

async function run<K extends string>(
  side: Side<K>,
  sim: SimulatorProcess,
  name: string,
  n: number,
  perSession: number,
  perSecond?: number,
): Promise<RunFigures<K>> {
  const pid = side.pids[side.receiving]
  const cpu = cpuMeter(side.pids)
  const writtenBefore = writtenBytes(pid)
  const health = side.healthPort === undefined ? undefined : probeHealth(side.healthPort)
  const bursts = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      sim.control<Burst>(`/bench/contacts/${contactPhone(i)}/texts`, {
        to: accountPhone(i),
        count: perSession,
        prefix: name,
        ...(perSecond ? { perSecond: Math.round(perSecond / n) } : {}),
      }),
    ),
  )
  const total = n * perSession
  const stats = await waitDelivered(side.counter, name, total)
  const { shares, seconds } = cpu()
  const written = writtenBytes(pid) - writtenBefore
  const healthMaxMs = await health?.()
  const firstSend = Math.min(...bursts.map((b) => b.startedAt))
  const lastSend = Math.max(...bursts.map((b) => b.finishedAt))
  return {
    messages: total,
    deliveredPerSecond: Math.round((stats.unique * 1000) / Math.max(1, stats.lastAt - firstSend)),
    sentPerSecond: Math.round((total * 1000) / Math.max(1, lastSend - firstSend)),
    lost: total - stats.unique,
    duplicates: stats.duplicates,
    outOfOrder: stats.outOfOrder,
    p50Ms: stats.p50Ms,
    p99Ms: stats.p99Ms,
    maxMs: stats.maxMs,
    cpu: shares,
    cpuMsPerMessage: Math.round((shares[side.receiving] * seconds * 1000 * 100) / Math.max(1, stats.unique)) / 100,
    diskKibPerMessage: Math.round((written * 10) / 1024 / Math.max(1, stats.unique)) / 10,
    ...(healthMaxMs === undefined ? {} : { healthMaxMs }),
  }
}

export interface InboundOptions {
  sessions?: number
  /** The paced run: msg/s over all sessions, and for how long. */
  rate?: number
  seconds?: number
  burstPerSession?: number
  /** A folder for the gateway's --cpu-prof (written when it stops). */
  cpuProfDir?: string
  /** A file for the gateway's log lines (else they are read and dropped). */
  logFile?: string
}

/**
 * The three runs on one side: 100 msg/s in all for 4 s (the warm-up, and the calm reference),
 * then `rate` msg/s for `seconds`, then the burst.
 */
async function runAll<K extends string>(
  side: Side<K>,
  sim: SimulatorProcess,
  {
    sessions,
    rate,
    seconds,
    burstPerSession,
  }: Required<Pick<InboundOptions, 'sessions' | 'rate' | 'seconds' | 'burstPerSession'>>,
) {
  const calm = await run(side, sim, 'calm', sessions, Math.round(400 / sessions), 100)
  if (calm.lost) throw new Error(`warm-up: ${calm.lost} of ${calm.messages} messages never arrived`)
  const paced = await run(side, sim, 'paced', sessions, Math.round((rate * seconds) / sessions), rate)
  const burst = await run(side, sim, 'burst', sessions, burstPerSession)
  return { calm, paced: { ...paced, targetPerSecond: rate }, burst }
}

/** The reference's process (bare-inbound.ts) on the stopped gateway's file, once its sockets are open. */
async function startBare(databasePath: string, sim: SimulatorProcess) {
  const { wsUrl } = (await (await fetch(new URL('/config', sim.controlUrl))).json()) as { wsUrl: string }
  const child = startNode(['--import', 'tsx', 'test/bench/bare-inbound.ts'], {
    DATABASE_PATH: databasePath,
    WS_URL: wsUrl,
  })
  const port = (JSON.parse(await firstLine(child, /"port"/)) as { port: number }).port
  return {
    child,
    stats: async (run: string) => (await (await fetch(`http://127.0.0.1:${port}/stats/${run}`)).json()) as RunReport,
    stop: () => stop(child),
  }
}

export async function measureInbound({
  sessions = 8,
  rate = 1_000,
  seconds = 10,
  burstPerSession = 2_500,
  cpuProfDir,
  logFile,
}: InboundOptions = {}): Promise<InboundFigures> {
  const contacts = Array.from({ length: sessions }, (_, i) => contactPhone(i)).join(',')
  const [sim, sink, compiled] = await Promise.all([
    startSimulatorProcess(['--contacts', contacts]),
    startSink(),
    compileGateway(),
  ])
  const dir = tempDir('bench-inbound-')
  let gateway: GatewayProcess | undefined
  let bare: Awaited<ReturnType<typeof startBare>> | undefined
  try {
    const env = {
      DATABASE_PATH: join(dir.path, 'gateway.db'),
      WA_SIMULATOR: sim.controlUrl,
      WEBHOOK_ALLOW_HTTP: 'true',
      ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_MS: '200',
    }
    const { loadKey } = await seedDatabaseFile(env.DATABASE_PATH)
    const nodeArgs = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []
    gateway = await startGatewayProcess(compiled.entry, env, nodeArgs)
    if (logFile) gateway.child.stdout!.pipe(createWriteStream(logFile))
    await connect(gateway, loadKey, sim, sink, sessions)
    const shape = { sessions, rate, seconds, burstPerSession }
    const pids = { gateway: gateway.child.pid!, simulator: sim.child.pid!, receiver: sink.child.pid! }
    const runs = await runAll({ pids, receiving: 'gateway', counter: sink, healthPort: gateway.port }, sim, shape)
    const { badSignatures, sequenceOutOfOrder } = await sink.stats('burst')
    // The reference: the same sessions as bare sockets, once the gateway stopped (its file then
    // holds every Signal session as it left it).
    await gateway.stop()
    gateway = undefined
    bare = await startBare(env.DATABASE_PATH, sim)
    const bareRuns = await runAll(
      { pids: { bare: bare.child.pid!, simulator: sim.child.pid! }, receiving: 'bare', counter: bare },
      sim,
      shape,
    )
    return { sessions, ...runs, bare: bareRuns, badSignatures, sequenceOutOfOrder }
  } finally {
    await gateway?.stop()
    await Promise.all([sim.stop(), sink.stop(), bare?.stop()])
    compiled.cleanup()
    dir.cleanup()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [sessions, rate, seconds, burst] = process.argv.slice(2).map(Number)
  console.log(
    JSON.stringify(
      await measureInbound({
        sessions: sessions || 8,
        rate: rate || 1_000,
        seconds: seconds || 10,
        burstPerSession: burst || 2_500,
        cpuProfDir: process.env.INBOUND_CPU_PROF,
        logFile: process.env.INBOUND_LOG,
      }),
      null,
      2,
    ),
  )
}
