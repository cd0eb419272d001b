/**
 * #36's account routes on the Cloudflare Workers deployment under local `wrangler dev`: the
 * privacy settings, a presence subscription with its presence.update events, and rejecting a
 * ringing call, posting and deleting a status with status.received events, business labels (the
 * phone's changes included), each served by the session's object with the real Baileys against
 * the simulator; and GET /v1/events/ws, accepted by the session's object with the hibernation API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isRefused, openSocket } from '../support/event-socket'
import { startEdgeRig, type EdgeRig } from './edge-rig'

const CONTACT = '15551230003'
const PHONE = '15550170003'

let rig: EdgeRig
let sessionId: string
let secret: string

beforeAll(async () => {
  rig = await startEdgeRig([CONTACT])
  ;({ sessionId, webhookSecret: secret } = await rig.linkSession('edge account', PHONE))
}, 180_000)

afterAll(() => rig?.close(), 60_000)

describe('edge: privacy, presence and calls in the session object', () => {
  it('reads and changes the privacy settings', async () => {
    const read = await rig.api('GET', `/v1/session/${sessionId}/privacy`)
    expect(read.status, JSON.stringify(read.body)).toBe(200)
    expect(read.body.privacy).toMatchObject({ lastSeen: 'all', readReceipts: 'all' })
    const changed = await rig.api('PATCH', `/v1/session/${sessionId}/privacy`, { lastSeen: 'none', groups: 'contacts' })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body.privacy).toMatchObject({ lastSeen: 'none', groups: 'contacts' })
    expect(rig.sim.account(PHONE).privacy()).toMatchObject({ last: 'none', groupadd: 'contacts' })
  }, 60_000)

  it('creates a business label, puts it on a chat, and follows the phone’s own label changes', async () => {
    rig.sim.setProfile(PHONE, { business: { description: 'Edge shop' } })
    await rig.sim.account(PHONE).waitForAppStateKey()
    const created = await rig.api('POST', '/v1/label', { sessionId, name: 'Edge customer', color: 4 })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const labelId = created.body.label.id
    const onChat = await rig.api('POST', `/v1/label/${labelId}/chat`, { sessionId, phone: CONTACT })
    expect(onChat.status, JSON.stringify(onChat.body)).toBe(200)
    expect(rig.sim.account(PHONE).labels.list()).toEqual([
      { id: labelId, name: 'Edge customer', color: 4, chats: [`${CONTACT}@s.whatsapp.net`], messages: [] },
    ])
    await rig.sim.account(PHONE).labels.save({ id: '9', name: 'From the phone', color: 7 })
    await rig.receiver.waitFor('edge', secret, (list) =>
      list.some((e) => e.type === 'label.upserted' && e.data.labelId === '9'),
    )
    const listed = await rig.api('GET', `/v1/label/all?sessionId=${sessionId}`)
    expect(listed.body.labels.map((label: any) => [label.id, label.name, label.chats])).toEqual([
      [labelId, 'Edge customer', [CONTACT]],
      ['9', 'From the phone', []],
    ])
    const deleted = await rig.api('DELETE', `/v1/label/9?sessionId=${sessionId}`)
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
    expect(rig.sim.violations()).toEqual([])
  }, 60_000)

  it('subscribes to a contact’s presence and delivers its presence.update events', async () => {
    const subscribed = await rig.api('POST', `/v1/contact/${CONTACT}/presence/subscribe`, { sessionId })
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200)
    await rig.receiver.waitFor('edge', secret, (list) =>
      list.some((e) => e.type === 'presence.update' && e.data.phone === CONTACT && e.data.state === 'unavailable'),
    )
    rig.sim.contact(CONTACT).setPresence('available')
    await rig.receiver.waitFor('edge', secret, (list) =>
      list.some((e) => e.type === 'presence.update' && e.data.phone === CONTACT && e.data.state === 'available'),
    )
  }, 60_000)

  it('rejects a ringing call', async () => {
    const callId = rig.sim.contact(CONTACT).call(PHONE)
    await rig.receiver.waitFor('edge', secret, (list) =>
      list.some((e) => e.type === 'call.received' && e.data.callId === callId),
    )
    const rejected = await rig.api('POST', `/v1/call/${callId}/reject`, { sessionId })
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200)
    expect(await rig.sim.account(PHONE).waitForCallResponse(callId)).toBe('reject')
    expect((await rig.api('POST', `/v1/call/${callId}/reject`, { sessionId })).status).toBe(404)
    expect(rig.sim.violations()).toEqual([])
  }, 60_000)

  it('posts a status to a contact, takes it down, and reports the contact’s status as status.received', async () => {
    const posted = await rig.api('POST', '/v1/status/text', {
      sessionId,
      text: 'From the edge',
      backgroundColor: '#128c7e',
      contacts: [CONTACT],
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(200)
    const seen = await rig.sim.contact(CONTACT).waitForMessage((m) => m.id === posted.body.messageId)
    expect(seen.chat).toBe('status@broadcast')
    expect(seen.message.extendedTextMessage).toMatchObject({ text: 'From the edge', backgroundArgb: 0xff128c7e })
    const deleted = await rig.api('POST', '/v1/status/delete', { sessionId, messageId: posted.body.messageId })
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
    await rig.sim.contact(CONTACT).waitForMessage((m) => m.message.protocolMessage?.key?.id === posted.body.messageId)

    const theirs = await rig.sim.contact(CONTACT).postStatus({ text: 'Seen from the edge' }, PHONE)
    const events = await rig.receiver.waitFor('edge', secret, (list) =>
      list.some((e) => e.type === 'status.received' && e.data.messageId === theirs),
    )
    expect(events.find((e) => e.data.messageId === theirs)!.data).toMatchObject({
      phone: 'status@broadcast',
      participant: CONTACT,
      content: { text: 'Seen from the edge' },
    })
    expect(rig.sim.violations()).toEqual([])
  }, 60_000)

  it('streams the session’s events over a WebSocket, the same bodies as its webhook, resuming after an eventId', async () => {
    const url = `${rig.dev.url.replace(/^http/, 'ws')}/v1/events/ws?sessionId=${sessionId}`
    const socket = await openSocket(url, { protocols: ['wag.events.v1', `wag.bearer.${rig.token}`] })
    if (isRefused(socket)) throw new Error(`${JSON.stringify(socket)}\n${rig.dev.output().slice(-3000)}`)
    expect(socket.protocol).toBe('wag.events.v1')
    await socket.until((frames) => frames.some((f) => f.json.type === 'ready'))
    const messageId = await rig.sim.contact(CONTACT).send({ text: 'over the socket' }, { to: PHONE })
    const isIt = (body: any) => body.type === 'message.received' && body.data.messageId === messageId
    const frames = await socket.until((list) => list.some((f) => f.json.id && isIt(f.json.data)), 20_000)
    const frame = frames.find((f) => f.json.id && isIt(f.json.data))!.json
    const webhook = (await rig.receiver.waitFor('edge', secret, (list) => list.some(isIt))).find(isIt)!
    expect(frame).toEqual({ id: webhook.eventId, type: 'message.received', data: webhook })

    // A second socket resuming after that event gets only what came later.
    const later = await rig.sim.contact(CONTACT).send({ text: 'after the resume point' }, { to: PHONE })
    const resumed = await openSocket(`${url}&after=${webhook.eventId}`, {
      protocols: ['wag.events.v1', `wag.bearer.${rig.token}`],
    })
    if (isRefused(resumed)) throw new Error(JSON.stringify(resumed))
    const got = await resumed.until((list) =>
      list.some((f) => f.json.type === 'message.received' && f.json.data.data.messageId === later),
    )
    expect(got.some((f) => f.json.id === webhook.eventId)).toBe(false)
    socket.close()
    resumed.close()
  }, 60_000)

  it('an eviction of the session’s object closes its sockets; reconnecting with `after` misses nothing', async () => {
    const url = `${rig.dev.url.replace(/^http/, 'ws')}/v1/events/ws?sessionId=${sessionId}`
    const protocols = ['wag.events.v1', `wag.bearer.${rig.token}`]
    const socket = await openSocket(url, { protocols })
    if (isRefused(socket)) throw new Error(JSON.stringify(socket))
    const first = await rig.sim.contact(CONTACT).send({ text: 'before the eviction' }, { to: PHONE })
    const isFor = (id: string) => (f: { json: any }) =>
      f.json.type === 'message.received' && f.json.data.data.messageId === id
    const seen = (await socket.until((list) => list.some(isFor(first)))).find(isFor(first))!.json.id
    expect((await rig.api('POST', `/__edge/session/${sessionId}/evict`)).status).toBe(200)
    expect((await socket.closed).code).toBe(1006)
    // Written while no socket was open, once the object is back and the session connected again.
    await rig.waitForStatus(sessionId, 'connected')
    const missed = await rig.sim.contact(CONTACT).send({ text: 'while away' }, { to: PHONE })
    await rig.receiver.waitFor('edge', secret, (list) =>
      list.some((e) => e.type === 'message.received' && e.data.messageId === missed),
    )
    const again = await openSocket(`${url}&after=${seen}`, { protocols })
    if (isRefused(again)) throw new Error(JSON.stringify(again))
    const frames = await again.until((list) => list.some(isFor(missed)), 20_000)
    expect(frames.some((f) => f.json.id === seen)).toBe(false)
    again.close()
  }, 90_000)

  it('refuses a socket without a credential in the handshake, for an unknown session, or as plain GET', async () => {
    const base = `${rig.dev.url.replace(/^http/, 'ws')}/v1/events/ws`
    expect(await openSocket(`${base}?sessionId=${sessionId}`)).toMatchObject({ status: 401 })
    expect(
      await openSocket(`${base}?sessionId=ses_aaaaaaaaaaaaaaaaaaaaaaaa`, {
        protocols: ['wag.events.v1', `wag.bearer.${rig.token}`],
      }),
    ).toMatchObject({ status: 404, body: { error: 'not_found' } })
    expect(await openSocket(base, { protocols: ['wag.events.v1', `wag.bearer.${rig.token}`] })).toMatchObject({
      status: 400,
    })
    expect((await rig.api('GET', `/v1/events/ws?sessionId=${sessionId}`)).status).toBe(400)
  }, 60_000)
})
