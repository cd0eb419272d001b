import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Clock } from '../../../src/clock'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550017101'
const CONTACT = '15551237101'
const MAX_BYTES = 64 * 1024

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Whatever a client, a sender or a link holder tries: 403, 404, 413, 502 — never a 500, never a file kept that failed its checks. */
describe('inbound media: other workspaces, links, hostile files', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  let offsetMs = 0
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) }

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({
      clock,
      config: {
        ...loopbackWebhooks,
        webhooks: fastWebhooks(),
        rateLimitPerMinute: 0,
        media: { ...(await import('../../../src/config')).resolveConfig().media, maxBytes: MAX_BYTES },
      },
    })
    t.sim.addContact(CONTACT)
    const { body } = await t.connect({ sessionName: 'hostile', webhookUrl: receiver.url('hook') })
    ;({ sessionId, webhookSecret: secret } = body)
    t.sim.scan(body.qrCode, ACCOUNT)
    await t.waitForStatus(sessionId, 'connected')
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const arrived = async (messageId: string) => {
    await t.waitForRecord(sessionId, messageId, (r) => r?.messageId === messageId)
    const events = await receiver.waitFor('hook', secret, (all) =>
      all.some((e) => e.type === 'message.received' && e.data.messageId === messageId),
    )
    return events.find((e) => e.data.messageId === messageId)!.data
  }
  const api = (messageId: string, key = t.key, session = sessionId) =>
    t.request(`/v1/message/${encodeURIComponent(messageId)}/media?sessionId=${session}`, {
      headers: { authorization: `Bearer ${key}` },
    })
  const anonymous = (path: string) => t.gateway.app.request(path)
  const pathOf = (downloadUrl: string) => new URL(downloadUrl).pathname
  const error = async (response: Response) => ({ status: response.status, ...((await response.json()) as any) })
  const mediaDir = () => join(dirname(t.databasePath), 'media')
  const storedFiles = () =>
    existsSync(mediaDir())
      ? (readdirSync(mediaDir(), { recursive: true }) as string[]).filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f))
      : []
  const tempFiles = () => (existsSync(join(mediaDir(), 'tmp')) ? readdirSync(join(mediaDir(), 'tmp')) : [])

  it('another workspace gets 404 for the session and its messages, as for an unknown message; no file is fetched', async () => {
    const bytes = randomBytes(1000)
    const id = await t.sim.contact(CONTACT).send({ image: bytes, mimetype: 'image/jpeg' }, { to: ACCOUNT })
    await arrived(id)
    const other = t.addWorkspace('intruder')
    expect(await error(await api(id, other.key))).toMatchObject({ status: 404, error: 'not_found' })
    expect(await error(await api('3ANOSUCHMESSAGE'))).toMatchObject({ status: 404, error: 'not_found' })
    expect(await error(await api(id, t.key, 'ses_unknown'))).toMatchObject({ status: 404, error: 'not_found' })
    expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(0)
    expect((await api(id, 'wag_wrong')).status).toBe(401)
  })

  it('a message without a file is 404 saying so; a text has no downloadUrl', async () => {
    const id = await t.sim.contact(CONTACT).send({ text: 'just words' }, { to: ACCOUNT })
    const event = await arrived(id)
    expect(event).not.toHaveProperty('downloadUrl')
    const answer = await error(await api(id))
    expect(answer).toMatchObject({ status: 404, error: 'not_found', details: { reason: 'no_media' } })
    expect(answer.message).toMatch(/has no file to download \(it is a text message\)/)
    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'ours' })
    expect((await error(await api(sent.body.messageId))).message).toMatch(/has no file/)
  })

  it('a downloadUrl works without a key; tampered, foreign, garbage or expired links are 403', async () => {
    const bytes = randomBytes(2000)
    const id = await t.sim.contact(CONTACT).send({ document: bytes, fileName: 'a.bin' }, { to: ACCOUNT })
    const { downloadUrl } = await arrived(id)
    const good = pathOf(downloadUrl)
    expect(sha256(new Uint8Array(await (await anonymous(good)).arrayBuffer()))).toBe(sha256(bytes))

    const token = good.split('/').pop()!
    const [body, signature] = token.split('.') as [string, string]
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
    const forged = (c: unknown[]) => Buffer.from(JSON.stringify(c)).toString('base64url')
    const tampered = [
      `${forged([claims[0], claims[1], '3AOTHERMESSAGE', claims[3]])}.${signature}`,
      `${forged([claims[0], claims[1], claims[2], claims[3] + 86_400])}.${signature}`,
      `${body}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      `${body}.`,
      `${body}`,
      `${body}.${signature}.extra`,
      'not-a-token',
      '%00%ff',
      `${forged(['x'])}.${signature}`,
    ]
    for (const bad of tampered) {
      const answer = await error(await anonymous(`/v1/media/${encodeURIComponent(bad)}`))
      expect(answer, bad).toMatchObject({ status: 403, error: 'forbidden', message: 'This download link is not valid' })
    }
    expect((await anonymous(`/v1/media/${'a'.repeat(5000)}`)).status).toBe(400)

    offsetMs = 3_600_000 + 1_000
    try {
      const expired = await error(await anonymous(good))
      expect(expired).toMatchObject({ status: 403, error: 'forbidden' })
      expect(expired.message).toMatch(/expired/)
      // The API itself still serves it
      expect((await api(id)).status).toBe(200)
    } finally {
      offsetMs = 0
    }
  })

  it('a file past MEDIA_MAX_BYTES is 413 before anything is fetched', async () => {
    const id = await t.sim
      .contact(CONTACT)
      .send({ document: randomBytes(MAX_BYTES + 1), fileName: 'big' }, { to: ACCOUNT })
    const { downloadUrl } = await arrived(id)
    expect(await error(await api(id))).toMatchObject({ status: 413, error: 'payload_too_large' })
    expect((await anonymous(pathOf(downloadUrl))).status).toBe(413)
    expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(0)
  })

  for (const tamper of ['mac', 'sha256', 'length'] as const) {
    it(`a file whose ${tamper} does not match is 502 and nothing is kept`, async () => {
      const before = storedFiles().length
      const id = await t.sim
        .contact(CONTACT)
        .send({ image: randomBytes(3000), mimetype: 'image/jpeg', tamper }, { to: ACCOUNT })
      await arrived(id)
      const answer = await error(await api(id))
      expect(answer).toMatchObject({ status: 502, error: 'upstream_error' })
      expect(answer.message).toMatch(/failed its integrity checks/)
      expect(storedFiles().length).toBe(before)
      expect(tempFiles()).toEqual([])
      // Asked again, it is fetched again (nothing cached as good)
      expect((await api(id)).status).toBe(502)
      expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(2)
    })
  }

  it('concurrent requests for one file share one download', async () => {
    const bytes = randomBytes(30_000)
    const id = await t.sim.contact(CONTACT).send({ video: bytes }, { to: ACCOUNT })
    const { downloadUrl } = await arrived(id)
    const release = t.sim.contact(CONTACT).holdMedia(id)
    const requests = [
      ...Array.from({ length: 6 }, () => api(id)),
      ...Array.from({ length: 6 }, () => anonymous(pathOf(downloadUrl))),
    ]
    await sleep(100)
    release()
    const bodies = await Promise.all(requests.map(async (r) => new Uint8Array(await (await r).arrayBuffer())))
    for (const body of bodies) expect(sha256(body)).toBe(sha256(bytes))
    expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(1)
    expect(t.sim.violations()).toEqual([])
  })
})
