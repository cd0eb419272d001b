/**
 * A day of use, compressed: `sessions` connected sessions in one gateway process (compiled; the
 * simulator in its own, devices minted as in scale.ts) for `minutes`, with texts going out
 * through the API and coming in from contacts all along, and a tenth of the sessions dropped by
 * WhatsApp every `dropEveryMinutes` (they reconnect by themselves).
 *
 * Every minute, over the DevTools protocol (inspector.ts): RSS and the heap after a forced GC,
 * the process's live handles, and every EventEmitter with its listeners. At the end, once the
 * traffic stopped and settled: the slope of each over the run after its first sample (per hour),
 * and what was lost: texts the API accepted that the simulator never got, and contacts' texts
 * never delivered as `message.received` to the local receiver.
 *
 * With `heapSnapshotDir` (SOAK_HEAP_SNAPSHOTS=<dir>): a heap snapshot after minute 5 and one at
 * the end, and what grew between them, by constructor (heap-summary.ts), to name a slope.
 */
import { createServer, type Server } from 'node:http'
import { once } from 'node:events'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { compileGateway } from './build'
import { startGatewayProcess, type GatewayProcess } from './gateway-process'
import { heapGrowth, summarizeHeapSnapshot } from './heap-summary'
import {
  activeResources,
  connectInspector,
  heapAfterGcMb,
  type Inspector,
  memoryUsageMb,
  writeHeapSnapshot,
} from './inspector'
import { freePort, smapsRollupMb } from './processes'
import { seedDatabaseFile, seedLinkedSessions } from './seed'
import { startSimulatorProcess } from './simulator-process'
import { tempDir } from '../support/temp-dir'
import type { MintedDevice } from '../wa-sim/mint'

export interface SoakSample {
  minute: number
  rssMb: number
  heapAfterGcMb: number
  /** The V8 heap's committed size and `external` (Buffers) after that GC: what RSS holds besides native memory */
  heapTotalMb: number
  externalMb: number
  /** From /proc/<pid>/smaps_rollup: anonymous memory (the V8 heap and every native allocation) and the rest of RSS (mapped files: code, the WAL index) */
  anonymousMb: number
  fileMb: number
  handles: number
  emitters: number
  listeners: number
}

export interface SoakFigures {
  sessions: number
  minutes: number
  samples: SoakSample[]
  /**
   * Least-squares slope per hour over the samples from `slopeFromMinute`: after the first, or
   * with heap snapshots 5 minutes after the first snapshot (taking one leaves its ~200 MB in RSS,
   * and its full GC drops the heap a few MB below the trend).
   */
  slopeFromMinute: number
  rssMbPerHour: number
  heapMbPerHour: number
  heapTotalMbPerHour: number
  externalMbPerHour: number
  anonymousMbPerHour: number
  fileMbPerHour: number
  handlesPerHour: number
  listenersPerHour: number
  drops: number
  /**
   * Texts out: a send whose connection died with its frame is not lost but `failed`
   * (`no_server_ack`, announced by `message.status`); lost is what is neither received nor reported
   */
  sent: {
    accepted: number
    refused: number
    receivedBySimulator: number
    reportedFailed: number
    lost: number
    /** Accepted sends in no contact's inbox and never reported failed (the first 20), to look up with SOAK_KEEP_DIR */
    lostIds: string[]
  }
  received: { sentByContacts: number; delivered: number; lost: number; lostIds: string[] }
}

const CONTACTS = ['15557771001', '15557771002', '15557771003', '15557771004']

/** Counts each `message.received`, and each send reported failed, by the message's id (a redelivery counts once). */
async function startReceiver(): Promise<{ server: Server; url: string; received: Set<string>; failed: Set<string> }> {
  const received = new Set<string>()
  const failed = new Set<string>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          type: string
          data: { messageId?: string; status?: string }
        }
        if (event.type === 'message.received' && event.data.messageId) received.add(event.data.messageId)
        // It was never counted: a send failed as no_server_ack (reported) read as lost
        if (event.type === 'message.status' && event.data.status === 'failed' && event.data.messageId)
          failed.add(event.data.messageId)
      } catch {
        // not an event: ignored
      }
      res.writeHead(200).end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  return { server, url: `http://127.0.0.1:${port}/hook`, received, failed }
}

const EMITTER_GROUP = 'soak-emitters'

/** Every EventEmitter in the process and how many listeners they hold, all events together. */
async function emitterCounts(inspector: Inspector): Promise<{ emitters: number; listeners: number }> {
  const { result: prototype } = await inspector.call<{ result: { objectId: string } }>('Runtime.evaluate', {
    expression: 'Object.getPrototypeOf(Object.getPrototypeOf(process))', // EventEmitter.prototype
    objectGroup: EMITTER_GROUP,
  })
  // In an object group of its own, released below: the inspector keeps what it hands out alive,
  // and an array of every emitter kept each minute would itself be the leak this looks for
  const { objects } = await inspector.call<{ objects: { objectId: string } }>('Runtime.queryObjects', {
    prototypeObjectId: prototype.objectId,
    objectGroup: EMITTER_GROUP,
  })
  // Prototypes of EventEmitter subclasses are found too: only instances have their own _events
  const { result, exceptionDetails } = await inspector.call<{
    result: { value: [number, number] }
    exceptionDetails?: { text: string }
  }>('Runtime.callFunctionOn', {
    objectId: objects.objectId,
    functionDeclaration: `function () {
      let emitters = 0, listeners = 0
      for (const e of this) {
        if (!Object.prototype.hasOwnProperty.call(e, '_events')) continue
        emitters++
        for (const name of e.eventNames()) listeners += e.listenerCount(name)
      }
      return [emitters, listeners]
    }`,
    returnByValue: true,
  })
  await inspector.call('Runtime.releaseObjectGroup', { objectGroup: EMITTER_GROUP })
  if (exceptionDetails) throw new Error(`counting emitters: ${exceptionDetails.text}`)
  return { emitters: result.value[0], listeners: result.value[1] }
}

const slopePerHour = (points: [number, number][]): number => {
  const n = points.length
  if (n < 2) return 0
  const mx = points.reduce((s, [x]) => s + x, 0) / n
  const my = points.reduce((s, [, y]) => s + y, 0) / n
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0)
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0)
  return sxx === 0 ? 0 : (sxy / sxx) * 60 // x in minutes
}

export async function measureSoak({
  sessions = 200,
  minutes = 30,
  dropEveryMinutes = 3,
  sendsPerSecond = 5,
  receivesPerSecond = 5,
  heapSnapshotDir = process.env.SOAK_HEAP_SNAPSHOTS,
  log = (line: string) => console.log(line),
} = {}): Promise<SoakFigures> {
  const sim = await startSimulatorProcess(['--contacts', CONTACTS.join(',')])
  const dir = tempDir('bench-soak-')
  const compiled = await compileGateway()
  const receiver = await startReceiver()
  const env = {
    DATABASE_PATH: join(dir.path, 'gateway.db'),
    WA_SIMULATOR: sim.controlUrl,
    ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_ALLOW_HTTP: 'true',
  }
  let gateway: GatewayProcess | undefined
  let inspector: Inspector | undefined
  try {
    const { loadKey, loadWorkspaceId } = await seedDatabaseFile(env.DATABASE_PATH)
    const devices: MintedDevice[] = []
    while (devices.length < sessions)
      devices.push(
        ...(await sim.control<MintedDevice[]>('/accounts/mint', { count: Math.min(500, sessions - devices.length) })),
      )
    await seedLinkedSessions(env.DATABASE_PATH, loadWorkspaceId, devices, receiver.url)
    const inspectPort = await freePort()
    gateway = await startGatewayProcess(compiled.entry, env, [`--inspect=127.0.0.1:${inspectPort}`])
    const g = gateway
    const sessionIds = devices.map((d) => `ses_minted${d.phone}`)
    for (;;) {
      const listed = (await (await g.api('/v1/session/all', loadKey)).json()) as { sessions: { connected: boolean }[] }
      if (listed.sessions.filter((s) => s.connected).length >= sessions) break
      await sleep(1_000)
    }
    inspector = await connectInspector(inspectPort)
    const probe = inspector

    const sent = { accepted: 0, refused: 0 }
    const acceptedIds: string[] = []
    const fromContacts: string[] = []
    let drops = 0
    let running = true
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!
    const every = async (perSecond: number, act: () => Promise<void>) => {
      while (running) {
        const started = performance.now()
        await act().catch(() => undefined)
        await sleep(Math.max(0, 1000 / perSecond - (performance.now() - started)))
      }
    }
    const outgoing = every(sendsPerSecond, async () => {
      const response = await g.api('/v1/message/text', loadKey, {
        method: 'POST',
        body: JSON.stringify({ sessionId: pick(sessionIds), phone: pick(CONTACTS), message: `soak ${sent.accepted}` }),
      })
      if (response.status === 200) {
        sent.accepted++
        acceptedIds.push(((await response.json()) as { messageId: string }).messageId)
      } else {
        await response.arrayBuffer()
        sent.refused++
      } // a session dropped a moment ago answers 409 until it is back
    })
    const incoming = every(receivesPerSecond, async () => {
      const { messageId } = await sim.control<{ messageId: string }>(`/contacts/${pick(CONTACTS)}/messages`, {
        text: `to the gateway ${fromContacts.length}`,
        to: pick(devices).phone,
      })
      fromContacts.push(messageId)
    })
    const dropping = (async () => {
      while (running) {
        await sleep(dropEveryMinutes * 60_000)
        if (!running) break
        for (let i = 0; i < Math.max(1, Math.floor(sessions / 10)); i++) {
          await sim.control(`/accounts/${pick(devices).phone}/faults`, { kind: 'drop' }).catch(() => undefined)
          drops++
        }
      }
    })()

    const samples: SoakSample[] = []
    const sample = async (minute: number) => {
      const heap = await heapAfterGcMb(probe)
      const memory = await memoryUsageMb(probe)
      const handles = Object.values(await activeResources(probe)).reduce((a, b) => a + b, 0)
      const { emitters, listeners } = await emitterCounts(probe)
      const rollup = smapsRollupMb(g.child.pid!)
      const row = {
        minute,
        rssMb: rollup.rss,
        anonymousMb: rollup.anonymous,
        fileMb: rollup.rss - rollup.anonymous,
        heapAfterGcMb: heap,
        heapTotalMb: memory.heapTotal,
        externalMb: memory.external,
        handles,
        emitters,
        listeners,
      }
      samples.push(row)
      log(
        `  soak minute ${minute}: RSS ${row.rssMb.toFixed(0)} MB, heap after GC ${heap.toFixed(1)} MB (committed ${memory.heapTotal} MB, external ${memory.external} MB), anonymous ${row.anonymousMb.toFixed(0)} MB, files ${row.fileMb.toFixed(0)} MB, ${handles} handles, ${emitters} emitters with ${listeners} listeners; sent ${sent.accepted} (${sent.refused} refused), contacts sent ${fromContacts.length}, drops ${drops}`,
      )
    }
    const snapshotAt = Math.min(5, minutes)
    const snapshot = async (name: string) => {
      if (!heapSnapshotDir) return undefined
      const path = join(heapSnapshotDir, `soak-${name}.heapsnapshot`)
      await writeHeapSnapshot(probe, path)
      log(`  heap snapshot: ${path}`)
      return path
    }
    const startedAt = performance.now()
    await sample(0)
    let early: string | undefined
    for (let minute = 1; minute <= minutes; minute++) {
      await sleep(Math.max(0, startedAt + minute * 60_000 - performance.now()))
      await sample(minute)
      if (minute === snapshotAt && minute < minutes) early = await snapshot(`minute-${minute}`)
    }
    const late = await snapshot(`minute-${minutes}`)
    if (early && late) {
      const growth = heapGrowth(summarizeHeapSnapshot(early, Infinity), summarizeHeapSnapshot(late, Infinity))
      log(`  grew from minute ${snapshotAt} to ${minutes} (self size, by constructor):`)
      for (const g of growth)
        log(`    ${String(g.selfMbChange).padStart(7)} MB ${String(g.countChange).padStart(9)}  ${g.name}`)
    }
    running = false
    await Promise.all([outgoing, incoming])
    void dropping // its sleep ends on its own; the process stops first

    // Let reconnections and retries finish: everything accepted reaches its side
    const simReceived = async () => {
      const stats = await sim.control<Record<string, { messagesReceived: number }>>('/stats')
      return devices.reduce((sum, d) => sum + (stats[d.phone]?.messagesReceived ?? 0), 0)
    }
    const settleUntil = performance.now() + 120_000
    while (
      performance.now() < settleUntil &&
      ((await simReceived()) + receiver.failed.size < sent.accepted ||
        fromContacts.some((id) => !receiver.received.has(id)))
    )
      await sleep(1_000)
    const receivedBySimulator = await simReceived()
    // By id, besides the counts: which accepted sends reached no contact and were never reported failed
    const inboxes = await Promise.all(
      CONTACTS.map((phone) => sim.control<{ id: string }[]>(`/contacts/${phone}/inbox`)),
    )
    const inInboxes = new Set(inboxes.flat().map((entry) => entry.id))
    const lostSends = acceptedIds.filter((id) => !inInboxes.has(id) && !receiver.failed.has(id))
    const delivered = fromContacts.filter((id) => receiver.received.has(id)).length
    const slopeFromMinute = heapSnapshotDir && snapshotAt < minutes ? Math.min(snapshotAt + 5, minutes - 1) : 1
    const tail = samples.filter((sample) => sample.minute >= slopeFromMinute)
    const slope = (of: (s: SoakSample) => number) => slopePerHour(tail.map((s) => [s.minute, of(s)]))
    return {
      sessions,
      minutes,
      samples,
      slopeFromMinute,
      rssMbPerHour: slope((s) => s.rssMb),
      heapMbPerHour: slope((s) => s.heapAfterGcMb),
      heapTotalMbPerHour: slope((s) => s.heapTotalMb),
      externalMbPerHour: slope((s) => s.externalMb),
      anonymousMbPerHour: slope((s) => s.anonymousMb),
      fileMbPerHour: slope((s) => s.fileMb),
      handlesPerHour: slope((s) => s.handles),
      listenersPerHour: slope((s) => s.listeners),
      drops,
      sent: {
        ...sent,
        receivedBySimulator,
        reportedFailed: receiver.failed.size,
        lost: lostSends.length,
        lostIds: lostSends.slice(0, 20),
      },
      received: {
        sentByContacts: fromContacts.length,
        delivered,
        lost: fromContacts.length - delivered,
        lostIds: fromContacts.filter((id) => !receiver.received.has(id)).slice(0, 20),
      },
    }
  } finally {
    inspector?.close()
    await gateway?.stop()
    receiver.server.close()
    compiled.cleanup()
    if (process.env.SOAK_KEEP_DIR) console.log(`soak database kept: ${dir.path}`)
    else dir.cleanup()
    await sim.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureSoak({
    sessions: Number(process.argv[2] ?? 200),
    minutes: Number(process.argv[3] ?? 30),
    dropEveryMinutes: Number(process.argv[4] ?? 3),
  })
  const { samples, ...summary } = figures
  console.log(JSON.stringify(summary, null, 2))
  // The figures are out; a socket the simulator's or receiver's close left lingering must not
  // keep the command waiting (it did, after a full 30-minute run).
  process.exit(0)
}
