import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveConfig } from '../../../src/config'
import { pollUntil } from '../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550017301'
const CONTACT = '15551237301'

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

/** MEDIA_DOWNLOAD=eager: files are fetched as they arrive, after the receipt and before their event. */
describe('inbound media: eager download', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  /** For each delivered message.received: whether its file was in the store when the receiver got it. */
  const storedOnArrival = new Map<string, boolean>()

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    receiver.respond = (request) => {
      const event = JSON.parse(request.raw)
      if (event.type === 'message.received' && event.data.content.media) {
        const key = sha256(`${event.sessionId}\0${event.data.messageId}`)
        storedOnArrival.set(
          event.data.messageId,
          existsSync(join(dirname(t.databasePath), 'media', key.slice(0, 2), key)),
        )
      }
      return 200
    }
    const defaults = resolveConfig()
    t = await startSimulatedGateway({
      config: {
        ...loopbackWebhooks,
        webhooks: fastWebhooks(),
        rateLimitPerMinute: 0,
        inboundMedia: { ...defaults.inboundMedia, download: 'eager', retryTimeoutMs: 500 },
      },
    })
    t.sim.addContact(CONTACT)
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'eager', webhookUrl: receiver.url('hook') },
    }))
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const received = () => receiver.events('hook', secret).filter((e) => e.type === 'message.received')

  it('stores the record and sends the receipt at once; the event waits for the file, and later events wait behind it', async () => {
    const bytes = randomBytes(20_000)
    const release = t.sim.holdMediaDownloads()
    const id = await t.sim.contact(CONTACT).send({ image: bytes, mimetype: 'image/jpeg' }, { to: ACCOUNT })
    let after = ''
    try {
      await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
      // WhatsApp was told it arrived (the receipt) while the download cannot have finished
      await pollUntil(
        async () => t.sim.account(ACCOUNT).unacknowledged(),
        (ids) => !ids.includes(id),
        { what: 'the delivery receipt' },
      )
      after = await t.sim.contact(CONTACT).send({ text: 'did you get my photo?' }, { to: ACCOUNT })
      await t.waitForRecord(sessionId, after, (r) => r?.messageId === after)
      await sleep(300)
      expect(received().map((e) => e.data.messageId)).not.toContain(id)
      expect(received().map((e) => e.data.messageId)).not.toContain(after)
      expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(1)
    } finally {
      release()
    }
    const events = await receiver.waitFor('hook', secret, (all) => all.some((e) => e.data.messageId === after))
    const order = events.filter((e) => e.type === 'message.received').map((e) => e.data.messageId)
    expect(order.slice(-2)).toEqual([id, after])
    expect(storedOnArrival.get(id)).toBe(true)

    // Served from the store: WhatsApp is not asked again
    const response = await t.request(`/v1/message/${id}/media?sessionId=${sessionId}`)
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes))
    expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(1)
  })

  it('a file that cannot be fetched still lets its event go (and is 422 media_unavailable on request)', async () => {
    t.sim.account(ACCOUNT).fault('phone-offline')
    try {
      const id = await t.sim.contact(CONTACT).send({ sticker: randomBytes(300) }, { to: ACCOUNT })
      // Gone from the CDN before the gateway got to it
      t.sim.contact(CONTACT).expireMedia(id)
      await receiver.waitFor('hook', secret, (all) => all.some((e) => e.data.messageId === id), { timeoutMs: 15_000 })
      expect(storedOnArrival.get(id)).toBe(false)
      const answer = await t.request(`/v1/message/${id}/media?sessionId=${sessionId}`)
      expect(answer.status).toBe(422)
    } finally {
      t.sim.account(ACCOUNT).clearFaults()
    }
    expect(t.sim.violations()).toEqual([])
  })
})
