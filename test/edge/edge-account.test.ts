/**
 * #36's account routes on the Cloudflare Workers deployment under local `wrangler dev`: the
 * privacy settings, a presence subscription with its presence.update events, and rejecting a
 * ringing call, each served by the session's object with the real Baileys against the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEdgeRig, type EdgeRig } from './edge-rig'

const CONTACT = '15551230003'
const PHONE = '15550170003'

let rig: EdgeRig
let sessionId: string
let secret: string

beforeAll(async () => {
  rig = await startEdgeRig([CONTACT])
  const connect = await rig.api('POST', '/v1/session/connect', {
    sessionName: 'edge account',
    webhookUrl: rig.receiver.url('edge'),
  })
  if (connect.status !== 200) throw new Error(`${JSON.stringify(connect.body)}\n${rig.dev.output().slice(-3000)}`)
  ;({ sessionId, webhookSecret: secret } = connect.body)
  rig.sim.scan(connect.body.qrCode, PHONE)
  await rig.waitForStatus(sessionId, 'connected')
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
})
