/**
 * A 5 MB document send through the API: the gateway fetches it from a loopback server, sniffs
 * its type, and Baileys encrypts and uploads it to the simulator's media host (the simulator in
 * its own process) before the message is relayed. One at a time (p50/p99 per send) and MB/s.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { assembleGateway } from '../../src/gateway'
import { silentLogger } from '../../src/logger'
import { createApiKey } from '../../src/services/api-keys'
import { createWorkspace } from '../../src/services/workspaces'
import { startMediaServer } from '../support/media-server'
import { startSimulatorProcess } from './simulator-process'

export interface DocumentSendFigures {
  sends: number
  megabytes: number
  p50Ms: number
  p99Ms: number
  megabytesPerSecond: number
  /** Messages the simulator's server took from the account, the warm-up left out. */
  receivedBySimulator: number
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

export async function benchDocumentSends(sends = 20, bytes = 5 * 1024 * 1024): Promise<DocumentSendFigures> {
  const contact = '15557780001'
  const account = '15557780101'
  const sim = await startSimulatorProcess(['--contacts', contact])
  const files = await startMediaServer()
  // Random bytes: nothing compresses them, and file-type finds no format (application/octet-stream).
  files.serve('report.bin', new Uint8Array(randomBytes(bytes)))
  const dir = mkdtempSync(join(tmpdir(), 'bench-documents-'))
  const database = await openDatabase(join(dir, 'gateway.db'), { checkpointInBackground: true })
  const { gateway, context } = assembleGateway({
    database,
    logger: silentLogger(),
    // The file server is on loopback: the operator's switch lets the fetcher reach it.
    config: { simulatorUrl: sim.controlUrl, rateLimitPerMinute: 0, allowPrivateAddresses: true },
  })
  try {
    await gateway.start()
    const workspace = createWorkspace(gateway.context, { name: 'bench', plan: 'paid' })
    const headers = {
      authorization: `Bearer ${createApiKey(gateway.context, { workspace: workspace.id }).key}`,
      'content-type': 'application/json',
    }
    const connect = await gateway.app.request('/v1/session/connect', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        sessionName: 'bench-documents',
        webhookUrl: 'https://hooks.invalid/bench',
        webhookMessages: false,
      }),
    })
    const { sessionId, qrCode } = (await connect.json()) as { sessionId: string; qrCode: string }
    await sim.control('/scan', { qr: qrCode, phone: account })
    for (let wait = 0; wait < 500 && !context.engine.session(sessionId)?.online; wait++) await sleep(20)

    const send = async (n: number) => {
      const started = performance.now()
      const response = await gateway.app.request('/v1/message/document', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          sessionId,
          phone: contact,
          documentUrl: files.url('report.bin'),
          fileName: `report-${n}.bin`,
        }),
      })
      if (response.status !== 200) throw new Error(`send ${n} answered ${response.status}: ${await response.text()}`)
      return performance.now() - started
    }
    await send(-1) // warm up: the first send builds the Signal sessions and asks for the media host
    const latencies: number[] = []
    const started = performance.now()
    for (let n = 0; n < sends; n++) latencies.push(await send(n))
    const seconds = (performance.now() - started) / 1000
    await sleep(500)
    const stats = await sim.control<Record<string, { messagesReceived: number }>>('/stats')
    latencies.sort((a, b) => a - b)
    const megabytes = bytes / 1024 / 1024
    return {
      sends,
      megabytes,
      p50Ms: Math.round(percentile(latencies, 50)),
      p99Ms: Math.round(percentile(latencies, 99)),
      megabytesPerSecond: Number(((sends * megabytes) / seconds).toFixed(1)),
      receivedBySimulator: (stats[account]?.messagesReceived ?? 0) - 1,
    }
  } finally {
    await gateway.stop()
    closeDatabase(database)
    rmSync(dir, { recursive: true, force: true })
    await files.close()
    await sim.stop()
  }
}
