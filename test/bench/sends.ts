/**
 * Text sends through the gateway's API and the real Baileys client to the simulator (in its
 * own process), against bare Baileys `sendMessage` with the same sessions: messages per second
 * with `concurrency` sends in flight, the latency of each (for the gateway: record written,
 * message encrypted and handed to the network), and the simulator's CPU share meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { closeDatabase, type GatewayDatabase, openDatabase } from '../../src/db/database'
import { assembleGateway } from '../../src/gateway'
import { silentLogger } from '../../src/logger'
import { createApiKey } from '../../src/services/api-keys'
import { createWorkspace } from '../../src/services/workspaces'
import { openBareSockets } from './bare-sends'
import { cpuUs, percentile } from './processes'
import { type SimulatorProcess, startSimulatorProcess } from './simulator-process'

export interface SendRun {
  messagesPerSecond: number
  p50Ms: number
  p99Ms: number
  /** What the simulator counted from the sessions' accounts during the run (should be `messages`). */
  receivedBySimulator: number
  /** The simulator's CPU time over the run's wall time (1 = one core busy). */
  simulatorCpuShare: number
  /**
   * This process's CPU time per message (the gateway or the bare sockets, and the bench's own
   * loop): steadier than msg/s on a shared machine, where other processes take turns on the cores.
   */
  cpuUsPerMessage: number
  seconds: number
}

export interface SendFigures {
  sessions: number
  messages: number
  concurrency: number
  rounds: number
  /** Each side over all its rounds: every message over their time, percentiles over every latency. */
  gateway: SendRun
  bare: SendRun
  /** gateway msg/s / bare msg/s, over all rounds. */
  ratio: number
  runs: { gateway: SendRun[]; bare: SendRun[] }
}

const contact = '15557770001'

/**
 * Message webhooks are off for these sessions: webhook delivery has its own bench. Baileys
 * encrypts one session's messages one at a time (its key-store transaction is a mutex per
 * account), so one session's rate is bounded by one encrypt-and-relay at a time; several
 * sessions send in parallel. Rounds interleave gateway and bare runs, so noise hits both.
 */
export async function benchSends(
  messages = 2_000,
  concurrency = 32,
  sessions = 1,
  rounds = 2,
  options: { profileTo?: string } = {},
): Promise<SendFigures> {
  const accounts = Array.from({ length: sessions }, (_, i) => `155577701${String(i).padStart(2, '0')}`)
  const sim = await startSimulatorProcess(['--contacts', contact])
  const dir = mkdtempSync(join(tmpdir(), 'bench-sends-'))
  const database = await openDatabase(join(dir, 'gateway.db'), { checkpointInBackground: true })
  const runs: { gateway: TimedRun[]; bare: TimedRun[] } = { gateway: [], bare: [] }
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined
  try {
    gateway = await startGateway(database, sim)
    const headers = linkHeaders(gateway)
    const sessionIds = await linkSessions(gateway, sim, headers, accounts)
    const { wsUrl } = (await (await fetch(new URL('/config', sim.controlUrl))).json()) as { wsUrl: string }
    // ABBA: the process's first run meets colder code, so the sides take turns being first.
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? (['gateway', 'bare'] as const) : (['bare', 'gateway'] as const)) {
        const profile = () => (options.profileTo ? startProfile() : undefined)
        const profilePath = join(options.profileTo ?? '', `${side}-sends-${sessions}-${round}.cpuprofile`)
        if (side === 'gateway') {
          gateway ??= await startGateway(database, sim, sessionIds)
          const profiling = await profile()
          runs.gateway.push(
            await timedRun(sim, accounts, gatewaySend(gateway, headers, sessionIds), messages, concurrency),
          )
          await profiling?.stopTo(profilePath)
          continue
        }
        // The gateway stops before its sessions log in as bare sockets, and starts again after.
        await gateway?.gateway.stop()
        gateway = undefined
        const bare = await openBareSockets(database, sessionIds, wsUrl, `${contact}@s.whatsapp.net`)
        try {
          const profiling = await profile()
          runs.bare.push(await timedRun(sim, accounts, bare.send, messages, concurrency))
          await profiling?.stopTo(profilePath)
        } finally {
          await bare.stop()
        }
      }
    }
    const pooledGateway = pooled(runs.gateway)
    const pooledBare = pooled(runs.bare)
    const withoutLatencies = (list: TimedRun[]) => list.map(({ latencies: _, ...run }) => run)
    return {
      sessions,
      messages,
      concurrency,
      rounds,
      gateway: pooledGateway,
      bare: pooledBare,
      ratio: Number((pooledGateway.messagesPerSecond / pooledBare.messagesPerSecond).toFixed(2)),
      runs: { gateway: withoutLatencies(runs.gateway), bare: withoutLatencies(runs.bare) },
    }
  } finally {
    await gateway?.gateway.stop()
    closeDatabase(database)
    rmSync(dir, { recursive: true, force: true })
    await sim.stop()
  }
}

type TimedRun = SendRun & { latencies: number[] }

function pooled(runs: TimedRun[]): SendRun {
  const sum = (f: (run: TimedRun) => number) => runs.reduce((total, run) => total + f(run), 0)
  const seconds = sum((run) => run.seconds)
  const messages = sum((run) => run.latencies.length)
  const latencies = runs.flatMap((run) => run.latencies).sort((a, b) => a - b)
  return {
    messagesPerSecond: Math.round(messages / seconds),
    p50Ms: Number(percentile(latencies, 50).toFixed(1)),
    p99Ms: Number(percentile(latencies, 99).toFixed(1)),
    receivedBySimulator: sum((run) => run.receivedBySimulator),
    simulatorCpuShare: Number((sum((run) => run.simulatorCpuShare * run.seconds) / seconds).toFixed(2)),
    cpuUsPerMessage: Math.round(sum((run) => run.cpuUsPerMessage * run.latencies.length) / messages),
    seconds: Number(seconds.toFixed(2)),
  }
}

/** The gateway in this process; with `sessionIds`, once they are back online (restored at start). */
async function startGateway(database: GatewayDatabase, sim: SimulatorProcess, sessionIds: string[] = []) {
  const assembled = assembleGateway({
    database,
    logger: silentLogger(),
    config: { simulatorUrl: sim.controlUrl, rateLimitPerMinute: 0 },
  })
  await assembled.gateway.start()
  await waitOnline(assembled, sessionIds)
  return assembled
}

type Assembled = ReturnType<typeof assembleGateway>

async function waitOnline({ context }: Assembled, sessionIds: string[]) {
  const online = () => sessionIds.every((id) => context.engine.session(id)?.online)
  for (let wait = 0; wait < 500 && !online(); wait++) await sleep(20)
  if (!online()) throw new Error('the sessions did not come online within 10 s')
}

function linkHeaders({ gateway }: Assembled) {
  const workspace = createWorkspace(gateway.context, { name: 'bench', plan: 'paid' })
  return {
    authorization: `Bearer ${createApiKey(gateway.context, { workspace: workspace.id }).key}`,
    'content-type': 'application/json',
  }
}

/** Each account linked through the gateway: connect, the simulated phone scans the QR. */
async function linkSessions(
  assembled: Assembled,
  sim: SimulatorProcess,
  headers: Record<string, string>,
  accounts: string[],
): Promise<string[]> {
  const sessionIds: string[] = []
  for (const [i, account] of accounts.entries()) {
    const connect = await assembled.gateway.app.request('/v1/session/connect', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        sessionName: `bench-${i}`,
        webhookUrl: 'https://hooks.invalid/bench',
        webhookMessages: false,
      }),
    })
    const { sessionId, qrCode } = (await connect.json()) as { sessionId: string; qrCode: string }
    await sim.control('/scan', { qr: qrCode, phone: account })
    sessionIds.push(sessionId)
    await waitOnline(assembled, [sessionId])
  }
  return sessionIds
}

function gatewaySend({ gateway }: Assembled, headers: Record<string, string>, sessionIds: string[]) {
  return async (n: number) => {
    const sessionId = sessionIds[((n % sessionIds.length) + sessionIds.length) % sessionIds.length]
    const body = JSON.stringify({ sessionId, phone: contact, message: `bench ${n}` })
    // With its Content-Length, as any HTTP client sends it (a Request made here has none, and
    // the body limit would then buffer and copy every body).
    const response = await gateway.app.request('/v1/message/text', {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      body,
    })
    if (response.status !== 200) throw new Error(`send ${n} answered ${response.status}: ${await response.text()}`)
  }
}

/** Warm-up sends, then `messages` sends, `concurrency` at once, timed. */
async function timedRun(
  sim: SimulatorProcess,
  accounts: string[],
  send: (n: number) => Promise<void>,
  messages: number,
  concurrency: number,
): Promise<TimedRun> {
  // Warm-up, untimed: each session's first send (it builds Signal sessions), then a burst the
  // size of the run's in-flight count, so the run times code the JIT has already compiled.
  for (let i = 0; i < accounts.length; i++) await send(-1 - i)
  await Promise.all(Array.from({ length: concurrency }, (_, i) => send(-1 - accounts.length - i)))
  await sleep(200)
  const receivedBefore = await received(sim, accounts)
  const latencies: number[] = []
  let next = 0
  const simCpuBefore = cpuUs(sim.child.pid!)
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < messages) {
        const sent = performance.now()
        await send(next++)
        latencies.push(performance.now() - sent)
      }
    }),
  )
  const elapsedMs = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  const simCpuShare = (cpuUs(sim.child.pid!) - simCpuBefore) / 1000 / elapsedMs
  await sleep(300)
  const sorted = [...latencies].sort((a, b) => a - b)
  return {
    latencies,
    seconds: Number((elapsedMs / 1000).toFixed(2)),
    messagesPerSecond: Math.round(messages / (elapsedMs / 1000)),
    p50Ms: Number(percentile(sorted, 50).toFixed(1)),
    p99Ms: Number(percentile(sorted, 99).toFixed(1)),
    receivedBySimulator: (await received(sim, accounts)) - receivedBefore,
    simulatorCpuShare: Number(simCpuShare.toFixed(2)),
    cpuUsPerMessage: Math.round((cpu.user + cpu.system) / messages),
  }
}

async function received(sim: SimulatorProcess, accounts: string[]): Promise<number> {
  const stats = await sim.control<Record<string, { messagesReceived: number }>>('/stats')
  return accounts.reduce((sum, account) => sum + (stats[account]?.messagesReceived ?? 0), 0)
}

/** A CPU profile of this process over one run (the gateway's or bare Baileys' side; the simulator is another process). */
async function startProfile() {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  return {
    async stopTo(path: string) {
      const { profile } = await session.post('Profiler.stop')
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, JSON.stringify(profile))
      session.disconnect()
    },
  }
}

/** `tsx test/bench/sends.ts [messages] [sessions] [rounds] [--cpu-prof-dir dir]` */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'cpu-prof-dir': { type: 'string' } } })
  const [messages = '1000', sessions = '1', rounds = '2'] = positionals
  const figures = await benchSends(Number(messages), 32, Number(sessions), Number(rounds), {
    profileTo: values['cpu-prof-dir'],
  })
  console.log(JSON.stringify(figures))
  process.exit(0)
}
