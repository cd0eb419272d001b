/**
 * Received files end to end, through the real Baileys client: a contact's 1 MB image in the
 * simulator → its message.received at a loopback receiver → the file downloaded by the event's
 * downloadUrl (no credential; fetched from the simulator's CDN, checked and stored on the way).
 * The reference in the same run: a contact's text → its message.received.
 */
import { createHash, randomBytes } from 'node:crypto'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import { fastWebhooks, loopbackWebhooks, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'

const FILE_BYTES = 1024 * 1024

export interface InboundMediaResult {
  files: number
  fileBytes: number
  p50Ms: number
  p99Ms: number
  textP50Ms: number
  textP99Ms: number
  sessions: number
  concurrentFiles: number
  filesPerSecond: number
  mismatches: number
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

interface Lane {
  contact: string
  account: string
  sessionId: string
  secret: string
  path: string
}

async function openLanes(t: SimulatedGateway, receiver: WebhookReceiver, count: number): Promise<Lane[]> {
  const lanes: Lane[] = []
  for (let i = 0; i < count; i++) {
    const contact = `155512800${String(i).padStart(2, '0')}`
    const account = `155500600${String(i).padStart(2, '0')}`
    t.sim.addContact(contact)
    const path = `media${i}`
    const { body } = await t.connect({ sessionName: `media-bench-${i}`, webhookUrl: receiver.url(path) })
    t.sim.scan(body.qrCode, account)
    await t.waitForStatus(body.sessionId, 'connected')
    lanes.push({ contact, account, sessionId: body.sessionId, secret: body.webhookSecret, path })
  }
  return lanes
}

/** One file through the whole path; answers the milliseconds from the contact's send to the last byte, and whether the bytes matched. */
async function oneFile(
  t: SimulatedGateway,
  receiver: WebhookReceiver,
  lane: Lane,
): Promise<{ ms: number; ok: boolean }> {
  const bytes = randomBytes(FILE_BYTES)
  const started = performance.now()
  const messageId = await t.sim
    .contact(lane.contact)
    .send({ image: bytes, mimetype: 'image/jpeg' }, { to: lane.account })
  const events = await receiver.waitFor(
    lane.path,
    lane.secret,
    (list) => list.some((e) => e.data.messageId === messageId),
    {
      timeoutMs: 30_000,
    },
  )
  const url = new URL(events.find((e) => e.data.messageId === messageId)!.data.downloadUrl)
  const response = await t.gateway.app.request(url.pathname)
  const body = new Uint8Array(await response.arrayBuffer())
  const ms = performance.now() - started
  const same = createHash('sha256').update(body).digest('hex') === createHash('sha256').update(bytes).digest('hex')
  return { ms, ok: response.status === 200 && same }
}

async function oneText(t: SimulatedGateway, receiver: WebhookReceiver, lane: Lane, i: number): Promise<number> {
  const started = performance.now()
  const messageId = await t.sim.contact(lane.contact).send({ text: `reference ${i}` }, { to: lane.account })
  await receiver.waitFor(lane.path, lane.secret, (list) => list.some((e) => e.data.messageId === messageId))
  return performance.now() - started
}

export async function benchInboundMedia(files: number, concurrentPerSession: number): Promise<InboundMediaResult> {
  const receiver = await startWebhookReceiver()
  const t = await startSimulatedGateway({
    plan: 'paid',
    config: { ...loopbackWebhooks, webhooks: fastWebhooks(), rateLimitPerMinute: 0 },
  })
  try {
    const lanes = await openLanes(t, receiver, 4)
    const first = lanes[0]!
    let mismatches = 0
    // Warm-up: the lazy engine, the media host's TLS, the store's directory
    await oneFile(t, receiver, first)
    const samples: number[] = []
    const texts: number[] = []
    for (let i = 0; i < files; i++) {
      const { ms, ok } = await oneFile(t, receiver, first)
      samples.push(ms)
      if (!ok) mismatches++
      texts.push(await oneText(t, receiver, first, i))
    }
    samples.sort((a, b) => a - b)
    texts.sort((a, b) => a - b)

    // 4 sessions, each with `concurrentPerSession` files on the way at once
    const perLane = Math.max(concurrentPerSession * 2, 4)
    const started = performance.now()
    const outcomes = await Promise.all(
      lanes.map(async (lane) => {
        const results: boolean[] = []
        for (let batch = 0; batch < perLane; batch += concurrentPerSession) {
          const round = await Promise.all(
            Array.from({ length: Math.min(concurrentPerSession, perLane - batch) }, () => oneFile(t, receiver, lane)),
          )
          results.push(...round.map((r) => r.ok))
        }
        return results
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const all = outcomes.flat()
    mismatches += all.filter((ok) => !ok).length
    return {
      files,
      fileBytes: FILE_BYTES,
      p50Ms: Math.round(quantile(samples, 0.5)),
      p99Ms: Math.round(quantile(samples, 0.99)),
      textP50Ms: Math.round(quantile(texts, 0.5)),
      textP99Ms: Math.round(quantile(texts, 0.99)),
      sessions: lanes.length,
      concurrentFiles: all.length,
      filesPerSecond: Math.round((all.length / seconds) * 10) / 10,
      mismatches,
    }
  } finally {
    await t.close()
    await receiver.close()
  }
}
