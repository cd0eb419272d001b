/**
 * History import at linking (#35, "Bounds and speed"), the gateway compiled in its own process
 * and the simulator in its own: N phones, each seeded with `chats` × `messagesPerChat` messages
 * over `days` days, link N sessions at once that ask for that history. Measured: the gateway's
 * RSS peak over its baseline (before linking), messages stored per second from the first scan
 * to the last history.synced, and the p99 of authed GET /v1/session/all at a steady 50 req/s
 * during the import against the same load on the idle gateway before linking. What was stored
 * is counted in the SQLite file and checked against what the phones sent.
 */
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { compileGateway } from './build'
import { startGatewayProcess } from './gateway-process'
import {
  connectWithHistory,
  countRows,
  latencies,
  loadFor,
  type LoadFigures,
  sampleRssPeak,
  steadyLoad,
} from './history-support'
import { settledRss } from './processes'
import { seedDatabaseFile } from './seed'
import { startSimulatorProcess } from './simulator-process'
import { tempDir } from '../support/temp-dir'

export interface HistoryImportOptions {
  sessions: number
  chats: number
  messagesPerChat: number
  days: number
  /** Seconds of the idle reference load. */
  idleLoadSeconds: number
  /** Writes a CPU profile of the gateway (node --cpu-prof) into this folder. */
  cpuProfileDir?: string
}

export interface HistoryImportFigures {
  sessions: number
  messagesPerSession: number
  /** Messages the phones sent (the simulator's count) and stored with source history (the file's). */
  expected: number
  stored: number
  skipped: number
  chunks: number
  incompleteChunks: number
  baselineRssMb: number
  peakRssMb: number
  rssGrowthMb: number
  /** First scan → last history.synced. */
  seconds: number
  messagesPerSecond: number
  idle: LoadFigures
  during: LoadFigures
  /**
   * `during` split: while sessions were still linking (first scan → the last session's first
   * history chunk kept; pairing makes each session's 812 pre-keys, a CPU-bound burst), and after,
   * when the gateway only imported.
   */
  whileLinking: LoadFigures
  afterLinked: LoadFigures
  /** First scan → every session's first chunk kept. */
  linkedSeconds: number
}

const PHONE_BASE = 15_557_700_000
const LOAD_PATH = '/v1/session/all'

export async function measureHistoryImport(options: HistoryImportOptions): Promise<HistoryImportFigures> {
  const { sessions: n, chats, messagesPerChat, days } = options
  const compiled = await compileGateway()
  const sim = await startSimulatorProcess()
  const dir = tempDir('bench-history-')
  const databasePath = join(dir.path, 'gateway.db')
  try {
    const { key, loadKey } = await seedDatabaseFile(databasePath)
    const gateway = await startGatewayProcess(
      compiled.entry,
      { DATABASE_PATH: databasePath, WA_SIMULATOR: sim.controlUrl, CONNECT_TIMEOUT_MS: '120000' },
      options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [],
    )
    try {
      const phones = Array.from({ length: n }, (_, i) => String(PHONE_BASE + i))
      let expected = 0
      for (const phone of phones) {
        const seeded = await sim.control<{ messages: number }>('/history', { phone, chats, messagesPerChat, days })
        expected += seeded.messages
      }
      // The reference: the same load on the idle gateway (its 10 stored sessions answered both times).
      const idle = await loadFor(gateway.port, key, LOAD_PATH, options.idleLoadSeconds)
      const baselineRssMb = await settledRss(gateway.child.pid!)
      const pending = await Promise.all(
        phones.map((phone, i) =>
          connectWithHistory(gateway, loadKey, sim.controlUrl, `history-${i}`, phone, {
            days,
            maxMessages: chats * messagesPerChat,
          }),
        ),
      )
      const peak = sampleRssPeak(gateway.child.pid!)
      const load = steadyLoad(gateway.port, key, LOAD_PATH)
      const firstScan = Date.now()
      await Promise.all(pending.map((p) => p.scan()))
      const ids = pending.map((p) => p.sessionId)
      const marks = ids.map(() => '?').join(',')
      const syncedCount = () =>
        countRows(
          databasePath,
          `SELECT count(*) AS n FROM sessions WHERE id IN (${marks}) AND history_synced_at IS NOT NULL`,
          ...ids,
        )
      const deadline = Date.now() + 30 * 60_000
      while (syncedCount() < n) {
        if (Date.now() > deadline) throw new Error(`only ${syncedCount()} of ${n} sessions synced their history`)
        await sleep(250)
      }
      const { answers, ...during } = await load.stop()
      const peakRssMb = peak.stop()
      // Each session's first chunk arrives once it linked and uploaded its pre-keys.
      const linkedAt = countRows(
        databasePath,
        `SELECT max(first) AS n FROM (SELECT min(created_at) AS first FROM history_chunks WHERE session_id IN (${marks}) GROUP BY session_id)`,
        ...ids,
      )
      const lastSynced = countRows(
        databasePath,
        `SELECT max(history_synced_at) AS n FROM sessions WHERE id IN (${marks})`,
        ...ids,
      )
      const stored = countRows(
        databasePath,
        `SELECT count(*) AS n FROM messages WHERE source = 'history' AND session_id IN (${marks})`,
        ...ids,
      )
      const chunkSum = (column: string) =>
        countRows(
          databasePath,
          `SELECT coalesce(sum(${column}), 0) AS n FROM history_chunks WHERE session_id IN (${marks})`,
          ...ids,
        )
      const seconds = (lastSynced - firstScan) / 1000
      return {
        sessions: n,
        messagesPerSession: chats * messagesPerChat,
        expected,
        stored,
        skipped: chunkSum('skipped'),
        chunks: chunkSum('1'),
        incompleteChunks: chunkSum("state IN ('cut_off', 'expired')"),
        baselineRssMb,
        peakRssMb,
        rssGrowthMb: peakRssMb - baselineRssMb,
        seconds,
        messagesPerSecond: stored / seconds,
        idle,
        during,
        whileLinking: latencies(answers, firstScan, linkedAt),
        afterLinked: latencies(answers, linkedAt),
        linkedSeconds: (linkedAt - firstScan) / 1000,
      }
    } finally {
      await gateway.stop()
    }
  } finally {
    dir.cleanup()
    await sim.stop()
    compiled.cleanup()
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(
    await measureHistoryImport({
      sessions: Number(process.argv[2] ?? 10),
      chats: 20,
      messagesPerChat: Number(process.argv[3] ?? 1000),
      days: 30,
      idleLoadSeconds: 10,
      cpuProfileDir: process.env.HISTORY_CPU_PROF,
    }),
  )
