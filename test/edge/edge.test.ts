/**
 * The Cloudflare Workers deployment under local `wrangler dev` (workerd from npm), against the
 * project's simulator in this process: the Worker, the workspace object and a session object
 * running the real Baileys. Slow by nature (a wrangler start, a restart, a 30 s alarm), so a few
 * tests that each walk a whole path.
 */
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { pollUntil } from '../support/poll'
import { tempDir } from '../support/temp-dir'
import { generate, testPicture } from '../support/media-fixtures'
import { fixture } from '../wa-sim/fixtures'
import { startMediaServer, type MediaServer } from '../support/media-server'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'
import { edgeJwt, freePort, startWranglerDev, type WranglerDev } from './wrangler-dev'

const JWT_SECRET = 'edge-test-secret-0123456789abcdef0123'
const CONTACT = '15551230001'
const PHONE = '15550170001'

let sim: WhatsAppSimulator
let control: ControlApi
let receiver: WebhookReceiver
let media: MediaServer
let dev: WranglerDev
let port: number
let token: string
const state = tempDir('edge-test-')
let env: Record<string, string>

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${dev.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }
}

/** pollUntil with wrangler's output in the failure: what workerd said is where the cause is. */
const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  try {
    return (await pollUntil(probe, (value) => value !== undefined, { timeoutMs, intervalMs: 100, what })) as T
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${dev.output().slice(-4000)}`)
  }
}

const sessionStatus = async (sessionId: string) =>
  (await api('GET', '/v1/session/all')).body.sessions?.find((s: any) => s.sessionId === sessionId)
const waitForStatus = (sessionId: string, status: string, timeoutMs?: number) =>
  until(
    `session ${sessionId} ${status}`,
    async () => {
      const session = await sessionStatus(sessionId)
      return session?.status === status ? session : undefined
    },
    timeoutMs,
  )
const accountOnline = () => sim.accounts().find((a) => a.phone === PHONE)?.online

beforeAll(async () => {
  sim = await WhatsAppSimulator.start({ contacts: [CONTACT], autoReceipts: true })
  control = await ControlApi.start(sim)
  receiver = await startWebhookReceiver()
  media = await startMediaServer()
  media.serve(
    'dot.png',
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
    'image/png',
  )
  port = await freePort()
  env = {
    WA_SIMULATOR: control.url,
    JWT_SECRET,
    WEBHOOK_ALLOW_HTTP: 'true',
    ALLOW_PRIVATE_ADDRESSES: 'true',
    EDGE_TEST_HOOKS: 'true',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  }
  dev = await startWranglerDev({ port, persistDir: state.path, env })
  token = await edgeJwt(JWT_SECRET, 'edge-acme')
}, 180_000)

afterAll(async () => {
  await dev?.stop()
  await receiver?.close()
  await media?.close()
  await control?.stop()
  await sim?.stop()
  state.cleanup()
}, 60_000)

describe('edge: Worker + Durable Objects in local workerd', () => {
  it('serves /health and /openapi.json, and the platform bugs the shims work around still reproduce', async () => {
    expect(await (await fetch(`${dev.url}/health`)).json()).toEqual({ status: 'ok' })
    const document = (await (await fetch(`${dev.url}/openapi.json`)).json()) as any
    expect(Object.keys(document.paths)).toContain('/v1/session/connect')
    // When one of these turns false, workerd fixed it: delete that shim (src/edge/platform-shims.ts).
    const bugs = (await (await fetch(`${dev.url}/__edge/platform`)).json()) as Record<string, unknown>
    expect(bugs.gcmEmptyAad).toMatch(/^reproduces/)
    expect(bugs.utf8WriteOffset).toMatch(/^reproduces/)
    expect((await fetch(`${dev.url}/v1/session/all`)).status).toBe(401)
    // The panel, served by the Worker as by the Node app, with its strict CSP.
    const panel = await fetch(`${dev.url}/panel`)
    expect(panel.status).toBe(200)
    expect(panel.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await (await fetch(`${dev.url}/panel/app.js`)).text()).toContain('/v1/events')
  })

  let sessionId: string
  let secret: string

  it('connects by QR, checks a contact, sends a text the contact decrypts, delivers signed webhooks', async () => {
    const connect = await api('POST', '/v1/session/connect', {
      sessionName: 'edge sales',
      webhookUrl: receiver.url('edge'),
    })
    expect(connect.status, `${JSON.stringify(connect.body)}\n${dev.output().slice(-3000)}`).toBe(200)
    expect(connect.body.qrCode).toBeTruthy()
    sessionId = connect.body.sessionId
    secret = connect.body.webhookSecret
    // The QR as an image, from connect and from the session's own route, in its object.
    expect(connect.body.qrImage).toMatch(/^data:image\/png;base64,/)
    const current = await api('GET', `/v1/session/${sessionId}/qr`)
    expect(current.status, JSON.stringify(current.body)).toBe(200)
    expect(current.body).toMatchObject({ sessionId, qrImage: expect.stringMatching(/^data:image\/png;base64,/) })
    sim.scan(connect.body.qrCode, PHONE)
    const connected = await waitForStatus(sessionId, 'connected')
    expect(connected.number).toBe(PHONE)
    // A group the account is in, which only the next login's one query finds
    const group = sim.createGroup('Edge team', [CONTACT, PHONE], CONTACT)
    const logins = sim.account(PHONE).stats().logins
    const restart = await api('POST', `/v1/session/${sessionId}/restart`)
    expect(restart.status, JSON.stringify(restart.body)).toBe(200)
    await waitForStatus(sessionId, 'connected')
    expect(sim.account(PHONE).stats().logins).toBe(logins + 1)

    // The group routes run in the session's object, served from its own SQLite
    const groups = await api('GET', `/v1/group/all?sessionId=${sessionId}`)
    expect(groups.status, JSON.stringify(groups.body)).toBe(200)
    expect(groups.body.groups).toMatchObject([{ groupId: group.jid, subject: 'Edge team', size: 2, isAdmin: true }])
    const info = await api('GET', `/v1/group/${group.jid}?sessionId=${sessionId}`)
    expect(info.status, JSON.stringify(info.body)).toBe(200)
    expect(info.body.participants.map((p: any) => [p.phone, p.admin])).toEqual([
      [CONTACT, 'superadmin'],
      [PHONE, 'admin'],
    ])

    // A contact's profile, asked from the session's object (it counts against no quota: the check
    // below still leaves 4998)
    sim.setProfile(CONTACT, { about: 'Reached from the edge' })
    const profile = await api('GET', `/v1/contact/${CONTACT}/profile?sessionId=${sessionId}`)
    expect(profile.status, JSON.stringify(profile.body)).toBe(200)
    expect(profile.body).toMatchObject({
      phone: CONTACT,
      lid: `${sim.contact(CONTACT).lid}@lid`,
      about: 'Reached from the edge',
      pictureUrl: null,
      business: null,
    })
    // Blocking and the account's own profile run there too: the block list is WhatsApp's, the
    // about goes as its iq, and a square JPEG of 192–640 px is sent as it is (no ffmpeg needed)
    const blocked = await api('POST', `/v1/contact/${CONTACT}/block`, { sessionId })
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200)
    expect(sim.account(PHONE).blocked()).toEqual([{ phone: CONTACT, lid: sim.contact(CONTACT).lid }])
    expect((await api('GET', `/v1/contact/blocked?sessionId=${sessionId}`)).body.blocked).toMatchObject([
      { phone: CONTACT },
    ])
    expect((await api('POST', `/v1/contact/${CONTACT}/unblock`, { sessionId })).body).toMatchObject({ blocked: false })
    expect(sim.account(PHONE).blocked()).toEqual([])
    const square = await generate([...testPicture('400x400', 1), '-frames:v', '1'], 'jpg')
    const own = await api('PUT', `/v1/session/${sessionId}/profile`, {
      about: 'Answering from the edge',
      pictureUrl: `data:image/jpeg;base64,${Buffer.from(square).toString('base64')}`,
    })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    expect(own.body).toEqual({
      sessionId,
      about: 'Answering from the edge',
      picture: { removed: false, side: 400, converted: false },
    })
    expect(sim.profile(PHONE).about).toBe('Answering from the edge')
    expect(sim.profile(PHONE).picture!.bytes.equals(Buffer.from(square))).toBe(true)

    const check = await api('POST', '/v1/contact/check', {
      sessionId,
      phones: [CONTACT, '+1 555-123-0001', '15559990000'],
    })
    expect(check.status, JSON.stringify(check.body)).toBe(200)
    expect(check.body.results.map((r: any) => r.exists)).toEqual([true, true, false])
    // Counted by the workspace object: two distinct numbers.
    expect(check.headers.get('ratelimit-remaining')).toBe('4998')

    const text = `from a Durable Object, longer than forty characters ✓ ${Date.now()}`
    const sent = await api('POST', '/v1/message/text', { sessionId, phone: CONTACT, message: text })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    await until('contact inbox', async () =>
      sim
        .contact(CONTACT)
        .inbox()
        .some((m) => m.message.extendedTextMessage?.text === text)
        ? true
        : undefined,
    )

    const events = await receiver.waitFor(
      'edge',
      secret,
      (list) =>
        list.some((e) => e.type === 'session.status' && e.data.status === 'connected') &&
        list.some((e) => e.type === 'message.status' && e.data.messageId === sent.body.messageId),
      { timeoutMs: 30_000 },
    )
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1))
    expect(sim.violations()).toEqual([])

    // What the panel does on the edge: the workspace-wide stream is refused (400, each session
    // keeps its own events), one session's stream is served by its object, and a delivery is
    // retried naming its session.
    expect((await fetch(`${dev.url}/v1/events`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(400)
    const stream = await fetch(`${dev.url}/v1/events?sessionId=${sessionId}`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': events[0]!.eventId },
    })
    expect(stream.status).toBe(200)
    const reader = stream.body!.getReader()
    let seen = ''
    while (!seen.includes(events[1]!.eventId)) seen += new TextDecoder().decode((await reader.read()).value)
    await reader.cancel()
    const log = await api('GET', `/v1/webhooks/deliveries?sessionId=${sessionId}&limit=1`)
    const retried = await api(
      'POST',
      `/v1/webhooks/deliveries/${log.body.deliveries[0].deliveryId}/retry?sessionId=${sessionId}`,
      {},
    )
    expect(retried.status, JSON.stringify(retried.body)).toBe(200)
  }, 120_000)

  it('sends an image through the simulator media host; voice notes and stickers answer 422 (no ffmpeg)', async () => {
    const image = await api('POST', '/v1/message/image', {
      sessionId,
      phone: CONTACT,
      imageUrl: media.url('dot.png'),
      caption: 'edge image',
    })
    expect(image.status, JSON.stringify(image.body)).toBe(200)
    expect(image.body.content).toMatchObject({ mimetype: 'image/png', width: 1, height: 1 })
    await until('image in the inbox', async () =>
      sim
        .contact(CONTACT)
        .inbox()
        .some((m) => m.message.imageMessage?.caption === 'edge image')
        ? true
        : undefined,
    )
    for (const [path, body] of [
      ['/v1/message/sticker', { stickerUrl: media.url('dot.png') }],
      ['/v1/message/audio', { audioUrl: media.url('dot.png'), ptt: true }],
    ] as const) {
      const refused = await api('POST', path, { sessionId, phone: CONTACT, ...body })
      expect(refused.status).toBe(422)
      expect(refused.body).toMatchObject({ error: 'media_unavailable', details: { runtime: 'workers' } })
    }
  }, 60_000)

  it('previews a text’s link through the edge fetcher (a small JPEG picture as it is) and forwards an image without uploading it again', async () => {
    const jpeg = fixture('jpeg').bytes
    media.serve('small.jpg', jpeg, 'image/jpeg')
    const page = `<html><head><meta property="og:title" content="Edge page"><meta property="og:image" content="${media.url('small.jpg')}"></head></html>`
    media.serve('page.html', new TextEncoder().encode(page), 'text/html')
    const text = `edge link ${media.url('page.html')}`
    const sent = await api('POST', '/v1/message/text', { sessionId, phone: CONTACT, message: text })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    expect(sent.body.content.linkPreview).toEqual({ url: media.url('page.html'), title: 'Edge page', thumbnail: true })
    const previewed = await until('previewed text in the inbox', async () =>
      sim
        .contact(CONTACT)
        .inbox()
        .find((m) => m.id === sent.body.messageId),
    )
    expect(previewed.message.extendedTextMessage).toMatchObject({
      matchedText: media.url('page.html'),
      title: 'Edge page',
    })
    expect(Buffer.from(previewed.message.extendedTextMessage!.jpegThumbnail!).equals(jpeg)).toBe(true)

    const image = await api('POST', '/v1/message/image', { sessionId, phone: CONTACT, imageUrl: media.url('dot.png') })
    expect(image.status, JSON.stringify(image.body)).toBe(200)
    const original = await until('image in the inbox', async () =>
      sim
        .contact(CONTACT)
        .inbox()
        .find((m) => m.id === image.body.messageId),
    )
    const uploads = sim.mediaUploads().length
    const forwarded = await api('POST', `/v1/message/${image.body.messageId}/forward`, { sessionId, phone: CONTACT })
    expect(forwarded.status, JSON.stringify(forwarded.body)).toBe(200)
    expect(forwarded.body.content).toMatchObject({ mimetype: 'image/png', forwarded: true })
    const copy = await until('forwarded image in the inbox', async () =>
      sim
        .contact(CONTACT)
        .inbox()
        .find((m) => m.id === forwarded.body.messageId),
    )
    expect(copy.message.imageMessage).toMatchObject({
      directPath: original.message.imageMessage!.directPath,
      contextInfo: { isForwarded: true, forwardingScore: 1 },
    })
    expect(sim.mediaUploads()).toHaveLength(uploads)
    expect(sim.violations()).toEqual([])
  }, 60_000)

  it('serves a contact’s file by API and by its downloadUrl (no credential), fetched from WhatsApp in the session’s object', async () => {
    const bytes = randomBytes(3000)
    const id = await sim.contact(CONTACT).send({ image: bytes, mimetype: 'image/jpeg' }, { to: PHONE })
    const events = await receiver.waitFor(
      'edge',
      secret,
      (list) => list.some((e) => e.type === 'message.received' && e.data.messageId === id),
      { timeoutMs: 30_000 },
    )
    const event = events.find((e) => e.data.messageId === id)!
    const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
    expect(event.data.content.media).toMatchObject({ mimetype: 'image/jpeg', size: 3000, sha256: sha256(bytes) })

    const byApi = await fetch(`${dev.url}/v1/message/${id}/media?sessionId=${sessionId}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(byApi.status, dev.output().slice(-3000)).toBe(200)
    expect(sha256(new Uint8Array(await byApi.arrayBuffer()))).toBe(sha256(bytes))

    expect(event.data.downloadUrl.startsWith(`${dev.url}/v1/media/`)).toBe(true)
    const signed = await fetch(event.data.downloadUrl)
    expect(signed.status).toBe(200)
    expect(signed.headers.get('etag')).toBe(`"${sha256(bytes)}"`)
    expect(sha256(new Uint8Array(await signed.arrayBuffer()))).toBe(sha256(bytes))
    const part = await fetch(event.data.downloadUrl, { headers: { range: 'bytes=10-19' } })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true)
    const tampered = event.data.downloadUrl.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'))
    expect((await fetch(tampered)).status).toBe(403)
    expect((await fetch(`${dev.url}/v1/media/not-a-token`)).status).toBe(403)
  }, 60_000)

  it('sends a document and a contact card in the session object; video answers 422 (no ffmpeg)', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\nedge document\n%%EOF\n')
    media.serve('edge%20notes.pdf', pdf)
    const document = await api('POST', '/v1/message/document', {
      sessionId,
      phone: CONTACT,
      documentUrl: media.url('edge%20notes.pdf'),
    })
    expect(document.status, JSON.stringify(document.body)).toBe(200)
    expect(document.body.content).toMatchObject({ mimetype: 'application/pdf', fileName: 'edge notes.pdf' })
    await until('document in the inbox', async () =>
      sim
        .contact(CONTACT)
        .inbox()
        .some((m) => m.id === document.body.messageId)
        ? true
        : undefined,
    )
    const opened = await sim.contact(CONTACT).media(document.body.messageId)
    expect(Buffer.from(opened.bytes).equals(Buffer.from(pdf))).toBe(true)

    const card = await api('POST', '/v1/message/contact', {
      sessionId,
      phone: CONTACT,
      contacts: [{ name: 'Edge; Person', phones: ['15550000001'] }],
    })
    expect(card.status, JSON.stringify(card.body)).toBe(200)
    await until('contact card in the inbox', async () =>
      sim
        .contact(CONTACT)
        .inbox()
        .find((m) => m.id === card.body.messageId)
        ?.message.contactMessage?.vcard?.includes('FN:Edge; Person')
        ? true
        : undefined,
    )

    const video = await api('POST', '/v1/message/video', { sessionId, phone: CONTACT, videoUrl: media.url('dot.png') })
    expect(video.status).toBe(422)
    expect(video.body).toMatchObject({ error: 'media_unavailable', details: { runtime: 'workers' } })
  }, 60_000)

  it('sends a poll in the session object, tallies a contact’s vote, reacts to the vote’s poll', async () => {
    const poll = await api('POST', '/v1/message/poll', {
      sessionId,
      phone: CONTACT,
      question: 'Edge or node?',
      options: ['Edge', 'Node'],
    })
    expect(poll.status, JSON.stringify(poll.body)).toBe(200)
    expect(poll.body).toMatchObject({ type: 'poll', content: { question: 'Edge or node?', options: ['Edge', 'Node'] } })
    await sim.contact(CONTACT).waitForMessage((m) => m.id === poll.body.messageId)
    await sim.contact(CONTACT).send({ vote: { pollId: poll.body.messageId, options: ['Edge'] } })
    await until('the vote in the tally', async () => {
      const record = await api('GET', `/v1/message/${poll.body.messageId}?sessionId=${sessionId}`)
      return record.body.content?.votes?.[0]?.count === 1 ? true : undefined
    })
    const reaction = await api('POST', '/v1/message/reaction', {
      sessionId,
      phone: CONTACT,
      messageId: poll.body.messageId,
      emoji: '👍',
    })
    expect(reaction.status, JSON.stringify(reaction.body)).toBe(200)
    expect(reaction.body.content.reactions).toHaveLength(1)
    // The chat list runs in the session's object too, on its own SQLite (json_each, the chat index).
    const chats = await api('GET', `/v1/chat/all?sessionId=${sessionId}&limit=1`)
    expect(chats.status, JSON.stringify(chats.body)).toBe(200)
    expect(chats.body.chats).toEqual([
      expect.objectContaining({ chat: CONTACT, isGroup: false, lastMessage: expect.objectContaining({ sessionId }) }),
    ])
    expect(sim.violations()).toEqual([])
  }, 60_000)

  it('refuses a proxyUrl and history on connect and update (400 naming why), stores nothing, keeps webhookEvents, and serves no /metrics', async () => {
    const proxyUrl = 'socks5://user:secret@proxy.example.com:1080'
    const connect = await api('POST', '/v1/session/connect', {
      sessionName: 'edge proxied',
      webhookUrl: receiver.url('edge'),
      proxyUrl,
    })
    expect([connect.status, connect.body.error], JSON.stringify(connect.body)).toEqual([400, 'validation_error'])
    expect(connect.body.details.fields[0].path).toBe('proxyUrl')
    expect(connect.body.message).toMatch(/edge/)
    expect(JSON.stringify(connect.body)).not.toContain('secret')
    const listed = (await api('GET', '/v1/session/all')).body.sessions as { sessionName: string }[]
    expect(listed.map((s) => s.sessionName)).not.toContain('edge proxied')

    const update = await api('PUT', `/v1/session/update/${sessionId}`, { proxyUrl })
    expect([update.status, update.body.details?.fields?.[0]?.path]).toEqual([400, 'proxyUrl'])
    expect((await sessionStatus(sessionId)).proxyUrl).toBeNull()
    // Removing a proxy (null) is no proxy: accepted.
    expect((await api('PUT', `/v1/session/update/${sessionId}`, { proxyUrl: null })).status).toBe(200)
    // webhookEvents is a column of the object's own SQLite (its migration ran there): set, listed, cleared.
    const filtered = await api('PUT', `/v1/session/update/${sessionId}`, { webhookEvents: ['session.status'] })
    expect([filtered.status, (await sessionStatus(sessionId)).webhookEvents]).toEqual([200, ['session.status']])
    expect((await api('PUT', `/v1/session/update/${sessionId}`, { webhookEvents: null })).body.webhookEvents).toBeNull()

    // History import is not done on the edge: refused, not stored and ignored (docs/edge.md).
    const history = await api('POST', '/v1/session/connect', { sessionName: 'edge history', history: { days: 7 } })
    expect([history.status, history.body.details?.fields?.[0]?.path]).toEqual([400, 'history'])
    expect(history.body.message).toMatch(/edge/)
    const historyUpdate = await api('PUT', `/v1/session/update/${sessionId}`, { history: { days: 7 } })
    expect([historyUpdate.status, historyUpdate.body.details?.fields?.[0]?.path]).toEqual([400, 'history'])
    expect((await sessionStatus(sessionId)).history).toBeNull()

    for (const authorization of [undefined, `Bearer ${token}`]) {
      const metrics = await fetch(`${dev.url}/metrics`, { headers: authorization ? { authorization } : {} })
      expect(metrics.status).toBe(404)
    }
  })

  it('is back to connected without a QR after wrangler dev restarts', async () => {
    expect(sessionId).toBeTruthy()
    await dev.stop()
    await until('account offline', async () => (accountOnline() === false ? true : undefined))
    const pairingsBefore = sim.pendingPairings().length
    dev = await startWranglerDev({ port, persistDir: state.path, env })
    // The first request rebuilds the object, which reconnects from its SQLite credentials.
    await waitForStatus(sessionId, 'connected', 60_000)
    expect(sim.pendingPairings().length).toBe(pairingsBefore)
    const text = `after the restart ${Date.now()}`
    expect((await api('POST', '/v1/message/text', { sessionId, phone: CONTACT, message: text })).status).toBe(200)
    await until('contact inbox', async () =>
      sim
        .contact(CONTACT)
        .inbox()
        .some((m) => m.message.conversation === text || m.message.extendedTextMessage?.text === text)
        ? true
        : undefined,
    )
  }, 180_000)

  it('an evicted session object is revived by its alarm and reconnects, with no request', async () => {
    const before = (await api('GET', `/__edge/session/${sessionId}`)).body
    expect(before.alarmAt).toBeGreaterThan(Date.now() - 1000)
    expect((await api('POST', `/__edge/session/${sessionId}/evict`)).status).toBe(200)
    await until(
      'account offline after the eviction',
      async () => (accountOnline() === false ? true : undefined),
      10_000,
    )
    // Nothing calls the Worker now: only the alarm (≤ 30 s) can bring the object back.
    await until('account online again', async () => (accountOnline() === true ? true : undefined), 60_000)
    const after = (await api('GET', `/__edge/session/${sessionId}`)).body
    expect(after.bootId).not.toBe(before.bootId)
    expect(after.wokenBy).toBe('alarm')
    // The simulator counts the account online at <success>, a moment before Baileys reports the login
    await waitForStatus(sessionId, 'connected', 10_000)
    // The revived object receives, records and delivers from its own outbox, signed as before.
    const since = Date.now()
    const text = `to the revived object ${since}`
    await sim.contact(CONTACT).send({ text }, { to: PHONE })
    await receiver.waitFor(
      'edge',
      secret,
      (list) => list.some((e) => e.type === 'message.received' && e.data.content?.text === text),
      { since, timeoutMs: 30_000 },
    )
  }, 120_000)
})
