/**
 * Webhook figures: (1) throughput, events/s from a full outbox to a receiver in another
 * process that verifies every signature, with 0 lost; (2) latency from a WhatsApp event (a
 * contact's message in the simulator) to its arrival at the receiver, end to end through
 * the real Baileys client.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { sessions } from '../../src/db/schema'
import { assembleGateway } from '../../src/gateway'
import { silentLogger } from '../../src/logger'
import { createWorkspace } from '../../src/services/workspaces'
import { startSimulatedGateway } from '../support/simulated-gateway'
import { tempDir } from '../support/temp-dir'
import { fastWebhooks, loopbackWebhooks, startWebhookReceiver } from '../support/webhook-receiver'

const root = join(import.meta.dirname, '../..')
const SECRET = `whsec_${Buffer.from('bench secret, 24 bytes!!').toString('base64')}`

export interface ThroughputResult {
  sessions: number
  events: number
  seconds: number
  eventsPerSecond: number
  lost: number
  badSignatures: number
  outOfOrder: number
}

export async function measureWebhookThroughput(sessionCount: number, perSession: number): Promise<ThroughputResult> {
  const sink = spawn(process.execPath, ['--import', 'tsx', 'test/bench/webhook-sink.ts'], {
    cwd: root,
    env: { ...process.env, SINK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const dir = tempDir('gateway-bench-')
  try {
    const port = await new Promise<number>((resolve) =>
      createInterface({ input: sink.stdout! }).once('line', (line) =>
        resolve((JSON.parse(line) as { port: number }).port),
      ),
    )
    const stats = async () =>
      (await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as {
        unique: number
        badSignatures: number
        outOfOrder: number
      }
    const database = await openDatabase(join(dir.path, 'bench.db'), { checkpointInBackground: true })
    const { gateway, context: ctx } = assembleGateway({
      database,
      logger: silentLogger(),
      config: { ...loopbackWebhooks, webhooks: fastWebhooks({ concurrency: 64 }) },
    })
    const workspace = createWorkspace(ctx, { name: 'bench' })
    const now = new Date()
    const ids: string[] = []
    for (let s = 0; s < sessionCount; s++) {
      const id = `ses_bench${s}`
      ids.push(id)
      ctx.db
        .insert(sessions)
        .values({
          id,
          workspaceId: workspace.id,
          name: `bench-${s}`,
          status: 'disconnected',
          webhookUrl: `http://127.0.0.1:${port}/s${s}`,
          webhookMessages: true,
          webhookSecret: SECRET,
          createdAt: now,
          updatedAt: now,
        })
        .run()
    }
    // The backlog, written as the services write events: one transaction per event.
    for (let i = 0; i < perSession; i++) {
      for (const sessionId of ids) {
        ctx.db.transaction(
          (tx) =>
            void ctx.outbox.record(tx, {
              sessionId,
              type: 'call.received',
              data: { callId: `c${i}`, from: '15551230001@s.whatsapp.net', isVideo: false, rejected: false },
            }),
          {
            behavior: 'immediate',
          },
        )
      }
    }
    const total = sessionCount * perSession
    const started = performance.now()
    await gateway.start()
    let last = await stats()
    while (last.unique < total) {
      await sleep(20)
      last = await stats()
      if (performance.now() - started > 120_000) break
    }
    const seconds = (performance.now() - started) / 1000
    await gateway.stop()
    closeDatabase(database)
    return {
      sessions: sessionCount,
      events: total,
      seconds,
      eventsPerSecond: total / seconds,
      lost: total - last.unique,
      badSignatures: last.badSignatures,
      outOfOrder: last.outOfOrder,
    }
  } finally {
    sink.kill()
    dir.cleanup()
  }
}

export interface LatencyResult {
  messages: number
  p50Ms: number
  p95Ms: number
  maxMs: number
}

/** From a contact's message in the simulator to the receiver having its `message.received`. */
export async function measureWebhookLatency(count: number): Promise<LatencyResult> {
  const receiver = await startWebhookReceiver()
  const t = await startSimulatedGateway({ config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
  try {
    const contact = '15551270001'
    t.sim.addContact(contact)
    const { body } = await t.connect({ sessionName: 'latency', webhookUrl: receiver.url('latency') })
    t.sim.scan(body.qrCode, '15550050001')
    await t.waitForStatus(body.sessionId, 'connected')
    const samples: number[] = []
    for (let i = 0; i < count; i++) {
      const sentAt = Date.now()
      const messageId = await t.sim.contact(contact).send({ text: `latency ${i}` }, { to: '15550050001' })
      const events = await receiver.waitFor('latency', body.webhookSecret, (list) =>
        list.some((e) => e.data.messageId === messageId),
      )
      const request = receiver.requests.find((r) => r.raw.includes(messageId))!
      samples.push(request.at - sentAt)
      if (!events.length) throw new Error('no event')
    }
    samples.sort((a, b) => a - b)
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!
    return { messages: count, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: samples.at(-1)! }
  } finally {
    await t.close()
    await receiver.close()
  }
}
