import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Clock } from '../../../src/clock'
import { resolveConfig } from '../../../src/config'
import { createLogger } from '../../../src/logger'
import { MEDIA_UNAVAILABLE } from '../../../src/services/media/fetch'
import type { HostResolver } from '../../../src/net/host-resolver'
import { startLoopbackServer, type LoopbackServer } from '../../support/loopback-server'
import { pollUntil } from '../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { queryFile } from '../../support/sqlite-file'
import type { MediaWhere } from '../../wa-sim/contact-media'
import type { MediaAnswer } from '../../wa-sim/media-host'
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

/** Whatever a client, a sender or a link holder tries: 403, 404, 413, 422 — never a 500, never a file kept that failed its checks. */
describe('inbound media: other workspaces, links, hostile files', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  let offsetMs = 0
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) }
  const logs: string[] = []

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({
      clock,
      logger: createLogger('info', { write: (line: string) => void logs.push(line) }),
      config: {
        ...loopbackWebhooks,
        webhooks: fastWebhooks(),
        rateLimitPerMinute: 0,
        media: { ...(await import('../../../src/config')).resolveConfig().media, maxBytes: MAX_BYTES },
      },
    })
    t.sim.addContact(CONTACT)
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'hostile', webhookUrl: receiver.url('hook') },
    }))
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
    it(`a file whose ${tamper} does not match is 422 media_unavailable (why: in the log) and nothing is kept`, async () => {
      const before = storedFiles().length
      const id = await t.sim
        .contact(CONTACT)
        .send({ image: randomBytes(3000), mimetype: 'image/jpeg', tamper }, { to: ACCOUNT })
      await arrived(id)
      const answer = await error(await api(id))
      expect(answer).toMatchObject({ status: 422, error: 'media_unavailable', message: MEDIA_UNAVAILABLE })
      expect(logs.some((line) => line.includes(id) && line.includes('failed its checks'))).toBe(true)
      expect(storedFiles().length).toBe(before)
      expect(tempFiles()).toEqual([])
      // Asked again, it is fetched again (nothing cached as good)
      expect((await api(id)).status).toBe(422)
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

/**
 * A contact's media message names where its file is (`url`, `directPath`), and WhatsApp never
 * checks it: the gateway downloads only over https from WhatsApp's media hosts (here the
 * simulator's, named by WA_SIMULATOR), follows no redirect, and tells the tenant one
 * media_unavailable whatever the far side did. Default guards: no ALLOW_PRIVATE_ADDRESSES.
 */
describe('inbound media: a contact’s message names where its file is', () => {
  const NO_DNS: HostResolver = async () => {
    throw new Error('no DNS in this test')
  }
  let loopback: LoopbackServer
  /** The operator's log of both gateways: where the reason goes. */
  const operatorLog: string[] = []
  /** A loopback service the gateway's host could reach: no contact may make the gateway touch it. */
  const internalService = () => loopback.connections

  const start = async (download: 'lazy' | 'eager') => {
    const defaults = resolveConfig()
    const t = await startSimulatedGateway({
      resolver: NO_DNS,
      logger: createLogger('info', { write: (line: string) => void operatorLog.push(line) }),
      config: {
        rateLimitPerMinute: 0,
        media: { ...defaults.media, timeoutMs: 1_500 },
        inboundMedia: { ...defaults.inboundMedia, download, retryTimeoutMs: 1_000 },
      },
    })
    expect(t.gateway.context.config.allowPrivateAddresses).toBe(false)
    t.sim.addContact(CONTACT)
    const { sessionId } = await t.linkSession({ phone: ACCOUNT, connect: { sessionName: `forged ${download}` } })
    return { t, sessionId }
  }
  /** The answer of GET /v1/message/{id}/media, as a tenant sees it. */
  const answerFor = async (t: SimulatedGateway, sessionId: string, id: string) => {
    const response = await t.request(`/v1/message/${encodeURIComponent(id)}/media?sessionId=${sessionId}`)
    const body = (await response.json()) as { error: string; message: string; details?: unknown }
    return { status: response.status, error: body.error, message: body.message, details: body.details }
  }
  const forged = (t: SimulatedGateway, where: MediaWhere) =>
    t.sim.contact(CONTACT).send({ document: randomBytes(500), fileName: 'invoice.pdf', where }, { to: ACCOUNT })

  beforeAll(async () => {
    loopback = await startLoopbackServer((_req, res) => res.end('internal'))
  })
  afterAll(async () => {
    await loopback.close()
  })

  /** Forged places a message can name, each of which reached the loopback service before. */
  const variants = (t: SimulatedGateway): [string, MediaWhere][] => [
    ['an http URL on a loopback port, no direct path', { url: loopback.url('/admin'), directPath: null }],
    [
      'another host (a loopback port) with a direct path',
      { url: `https://127.0.0.1:${loopback.port}/x`, directPath: '/admin' },
    ],
    [
      'a direct path that does not start with "/"',
      { url: t.sim.scriptMedia({ status: 404 }).url, directPath: `@127.0.0.1:${loopback.port}/admin` },
    ],
    [
      'WhatsApp’s media host redirecting to a loopback URL',
      (() => {
        const redirect = t.sim.scriptMedia({ status: 302, location: loopback.url('/admin') })
        return { url: redirect.url, directPath: redirect.directPath }
      })(),
    ],
  ]

  describe('MEDIA_DOWNLOAD=lazy', () => {
    let t: SimulatedGateway
    let sessionId: string
    beforeAll(async () => {
      ;({ t, sessionId } = await start('lazy'))
    }, 60_000)
    afterAll(async () => {
      await t?.close()
    })

    it('a genuine file still comes from the simulator’s media host (loopback, allowed because WA_SIMULATOR names it)', async () => {
      const bytes = randomBytes(700)
      const id = await t.sim.contact(CONTACT).send({ document: bytes, fileName: 'real.bin' }, { to: ACCOUNT })
      await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
      const response = await t.request(`/v1/message/${id}/media?sessionId=${sessionId}`)
      expect(response.status).toBe(200)
      expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes))
    })

    it('a forged url or directPath is never fetched: the internal service sees nothing, the tenant one media_unavailable', async () => {
      const answers = []
      for (const [name, where] of variants(t)) {
        const id = await forged(t, where)
        await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
        answers.push({ name, ...(await answerFor(t, sessionId, id)) })
        expect(internalService(), name).toBe(0)
        const logged = operatorLog.filter((line) => line.includes(id) && line.includes('could not be downloaded'))
        expect(logged.join(), name).toMatch(/names no WhatsApp media URL|the media host answered 302/)
      }
      for (const answer of answers)
        expect(answer).toMatchObject({ status: 422, error: 'media_unavailable', message: MEDIA_UNAVAILABLE })
      expect(new Set(answers.map(({ name: _, ...rest }) => JSON.stringify(rest))).size).toBe(1)
      expect(t.sim.violations()).toEqual([])
    })

    it('whatever WhatsApp’s media host answers (200 garbage, 302, 404, 500, silence), the tenant hears the same thing', async () => {
      const replies: [string, MediaAnswer][] = [
        ['200 with garbage', { status: 200, body: randomBytes(512) }],
        ['302 to a loopback URL', { status: 302, location: loopback.url('/admin') }],
        ['404', { status: 404 }],
        ['500', { status: 500 }],
        ['silence', 'silence'],
      ]
      const answers = []
      for (const [name, reply] of replies) {
        const scripted = t.sim.scriptMedia(reply)
        const id = await forged(t, { url: scripted.url, directPath: scripted.directPath })
        await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
        answers.push({ name, ...(await answerFor(t, sessionId, id)) })
        expect(scripted.downloads(), name).toBe(1)
      }
      for (const answer of answers) expect(answer).toMatchObject({ status: 422, error: 'media_unavailable' })
      expect(new Set(answers.map(({ name: _, ...rest }) => JSON.stringify(rest))).size).toBe(1)
      expect(internalService()).toBe(0)
    }, 30_000)
  })

  describe('MEDIA_DOWNLOAD=eager', () => {
    let t: SimulatedGateway
    let sessionId: string
    beforeAll(async () => {
      ;({ t, sessionId } = await start('eager'))
    }, 60_000)
    afterAll(async () => {
      await t?.close()
    })

    /**
     * The message.received of `id` was let go: its eager fetch is over. The fetch holds the
     * event's delivery for eagerHoldMs (4 s here) and its end releases it at once (the delivery
     * itself waits behind the session's earlier ones to https://hooks.invalid, never attempted).
     */
    const eagerFetchOver = (id: string) =>
      pollUntil(
        () =>
          queryFile<{ released: number }>(
            t.databasePath,
            `SELECT d.next_attempt_at < d.created_at + 3000 AS released FROM webhook_deliveries d
             JOIN webhook_events e ON e.id = d.event_id WHERE e.type = 'message.received' AND e.body LIKE ?`,
            `%${id}%`,
          ),
        (rows) => rows.length === 1 && rows[0]!.released === 1,
        { what: `the release of ${id}'s message.received` },
      )

    it('a forged url or directPath is not fetched on arrival, nor on request', async () => {
      for (const [name, where] of variants(t)) {
        const id = await forged(t, where)
        await eagerFetchOver(id)
        expect(internalService(), `${name}, on arrival`).toBe(0)
        expect(await answerFor(t, sessionId, id), name).toMatchObject({ status: 422, error: 'media_unavailable' })
        expect(internalService(), `${name}, on request`).toBe(0)
      }
      expect(t.sim.violations()).toEqual([])
    }, 30_000)
  })
})
