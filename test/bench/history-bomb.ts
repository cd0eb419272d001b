/**
 * A history file that inflates to 1 GiB (#35, "Bounds and speed"), the gateway compiled in its
 * own process and the simulator in its own: one session with history on links, then its phone
 * sends a FULL history-sync notification whose file is a valid HistorySync with one bytes field
 * of zeros (about 1 MB deflated). Measured: the gateway's RSS peak over its baseline while it
 * reads the file, how long from the notification kept (history_chunks.created_at) to its
 * history.progress event with state cut_off, and that the API kept answering meanwhile (the
 * p99 of authed GET /v1/session/all at 50 req/s against the same before the file, no failures,
 * and a 200 after).
 */
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { compileGateway } from './build'
import { startGatewayProcess, waitConnected } from './gateway-process'
import { connectWithHistory, type LoadFigures, loadFor, sampleRssPeak, steadyLoad } from './history-support'
import { settledRss } from './processes'
import { seedDatabaseFile } from './seed'
import { startSimulatorProcess } from './simulator-process'
import { resolveConfig } from '../../src/config'
import { queryFile } from '../support/sqlite-file'
import { tempDir } from '../support/temp-dir'

export interface HistoryBombFigures {
  inflatedBytes: number
  /** The gateway's budget for one chunk (config history.chunkMaxBytes, default 128 MiB). */
  chunkMaxBytes: number
  baselineRssMb: number
  peakRssMb: number
  rssGrowthMb: number
  /** Notification kept → history.progress (cut_off) recorded, by the gateway's own clock. */
  reportedMs: number
  state: string
  stateReason: string | null
  /** The same load on the linked session's gateway before the file (the reference). */
  idle: LoadFigures
  during: LoadFigures
  /** GET /v1/session/all after it, and whether the session is still connected. */
  answersAfter: number
  stillConnected: boolean
}

const PHONE = '15557790001'
const LOAD_PATH = '/v1/session/all'

interface ProgressEvent {
  data: { state: string; stateReason: string | null }
}

export async function measureHistoryBomb(inflatedBytes = 1024 ** 3): Promise<HistoryBombFigures> {
  const compiled = await compileGateway()
  const sim = await startSimulatorProcess()
  const dir = tempDir('bench-history-bomb-')
  const databasePath = join(dir.path, 'gateway.db')
  try {
    const { key, loadKey } = await seedDatabaseFile(databasePath)
    const gateway = await startGatewayProcess(compiled.entry, {
      DATABASE_PATH: databasePath,
      WA_SIMULATOR: sim.controlUrl,
    })
    try {
      const linking = await connectWithHistory(gateway, loadKey, sim.controlUrl, 'bomb', PHONE, { days: 30 })
      await linking.scan()
      await waitConnected(gateway, loadKey, 1, 60_000)
      const idle = await loadFor(gateway.port, key, LOAD_PATH, 5)
      const baselineRssMb = await settledRss(gateway.child.pid!)
      const peak = sampleRssPeak(gateway.child.pid!)
      const load = steadyLoad(gateway.port, key, LOAD_PATH)
      const { id } = await sim.control<{ id: string }>('/history/blob', {
        phone: PHONE,
        syncType: 'FULL',
        inflatedBytes,
      })
      const progress = () =>
        queryFile<{ body: string; createdAt: number }>(
          databasePath,
          "SELECT body, created_at AS createdAt FROM webhook_events WHERE session_id = ? AND type = 'history.progress'",
          linking.sessionId,
        )
      const deadline = Date.now() + 10 * 60_000
      while (progress().length === 0) {
        if (Date.now() > deadline) throw new Error('no history.progress for the 1 GiB file within 10 minutes')
        await sleep(50)
      }
      const { answers: _, ...during } = await load.stop()
      const peakRssMb = peak.stop()
      const [event] = progress()
      const { data } = JSON.parse(event!.body) as ProgressEvent
      const [chunk] = queryFile<{ createdAt: number }>(
        databasePath,
        'SELECT created_at AS createdAt FROM history_chunks WHERE session_id = ? AND id = ?',
        linking.sessionId,
        id,
      )
      if (!chunk) throw new Error(`the gateway kept no chunk ${id}`)
      const after = await gateway.api(LOAD_PATH, loadKey)
      const { sessions } = (await after.json()) as { sessions: { connected: boolean }[] }
      return {
        inflatedBytes,
        chunkMaxBytes: resolveConfig({}).history.chunkMaxBytes,
        baselineRssMb,
        peakRssMb,
        rssGrowthMb: peakRssMb - baselineRssMb,
        reportedMs: event!.createdAt - chunk.createdAt,
        state: data.state,
        stateReason: data.stateReason,
        idle,
        during,
        answersAfter: after.status,
        stillConnected: sessions[0]?.connected === true,
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
  console.log(await measureHistoryBomb(Number(process.argv[2] ?? 1024 ** 3)))
