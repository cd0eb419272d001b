/**
 * Text sends through the gateway's API and the real Baileys client to the simulator (in its
 * own process): messages per second with `concurrency` requests in flight, and the latency of
 * each request (record written, message encrypted and handed to the network).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { assembleGateway } from '../../src/gateway'
import { silentLogger } from '../../src/logger'
import { createApiKey } from '../../src/services/api-keys'
import { createWorkspace } from '../../src/services/workspaces'
import { startSimulatorProcess } from './simulator-process'

export interface SendFigures {
  sessions: number
  messages: number
  concurrency: number
  messagesPerSecond: number
  p50Ms: number
  p99Ms: number
  receivedBySimulator: number
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/**
 * Message webhooks are off for these sessions: webhook delivery has its own bench, and a
 * reserved, never-resolving URL would only add retries. Baileys encrypts one session's messages one at a time (its key-store transaction is a mutex
 * per account), so one session's rate is bounded by one encrypt-and-relay at a time; several
 * sessions send in parallel.
 */
export async function benchSends(messages = 2_000, concurrency = 32, sessions = 1): Promise<SendFigures> {
  const contact = '15557770001'
  const accounts = Array.from({ length: sessions }, (_, i) => `155577701${String(i).padStart(2, '0')}`)
  const sim = await startSimulatorProcess(['--contacts', contact])
  const dir = mkdtempSync(join(tmpdir(), 'bench-sends-'))
  const database = await openDatabase(join(dir, 'gateway.db'))
  const { gateway, context } = assembleGateway({
    database,
    logger: silentLogger(),
    config: { simulatorUrl: sim.controlUrl, rateLimitPerMinute: 0 },
  })
  try {
    await gateway.start()
    const workspace = createWorkspace(gateway.context, { name: 'bench', plan: 'paid' })
    const headers = {
      authorization: `Bearer ${createApiKey(gateway.context, { workspace: workspace.id }).key}`,
      'content-type': 'application/json',
    }
    const sessionIds: string[] = []
    for (const [i, account] of accounts.entries()) {
      const connect = await gateway.app.request('/v1/session/connect', {
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
      for (let wait = 0; wait < 500 && !context.engine.session(sessionId)?.online; wait++) await sleep(20)
      sessionIds.push(sessionId)
    }

    const send = async (n: number) => {
      const started = performance.now()
      const sessionId = sessionIds[(n + sessions) % sessions]
      const response = await gateway.app.request('/v1/message/text', {
        method: 'POST',
        headers,
        body: JSON.stringify({ sessionId, phone: contact, message: `bench ${n}` }),
      })
      if (response.status !== 200) throw new Error(`send ${n} answered ${response.status}: ${await response.text()}`)
      return performance.now() - started
    }
    for (let i = 0; i < sessions; i++) await send(i - sessions) // warm up: a session's first send builds its Signal sessions
    const latencies: number[] = []
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < messages) latencies.push(await send(next++))
      }),
    )
    const seconds = (performance.now() - started) / 1000
    await sleep(500)
    const stats = await sim.control<Record<string, { messagesReceived: number }>>('/stats')
    latencies.sort((a, b) => a - b)
    return {
      sessions,
      messages,
      concurrency,
      messagesPerSecond: Math.round(messages / seconds),
      p50Ms: Number(percentile(latencies, 50).toFixed(1)),
      p99Ms: Number(percentile(latencies, 99).toFixed(1)),
      receivedBySimulator: accounts.reduce((sum, account) => sum + (stats[account]?.messagesReceived ?? 0) - 1, 0),
    }
  } finally {
    await gateway.stop()
    closeDatabase(database)
    rmSync(dir, { recursive: true, force: true })
    await sim.stop()
  }
}
