import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const ACCOUNT = '15550047001'
const CALLER = '15551470001'

/**
 * Rejecting one call through the API: the reject reaches the simulator as Baileys' rejectCall
 * builds it (the simulator refuses a reject of a call never offered, or naming another caller),
 * only while the call rings; one that ended or was rejected already is 404.
 */
describe('rejecting an incoming call', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string

  const reject = (callId: string, session = sessionId, key?: string) =>
    t.post(`/v1/call/${encodeURIComponent(callId)}/reject`, { sessionId: session }, key ? { key } : undefined)
  const ringing = async () => {
    const callId = t.sim.contact(CALLER).call(ACCOUNT)
    await receiver.waitFor('main', secret, (list) =>
      list.some((e) => e.type === 'call.received' && e.data.callId === callId),
    )
    return callId
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    t.sim.addContact(CALLER)
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'main', webhookUrl: receiver.url('main') },
    }))
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('rejects a ringing call: the caller’s WhatsApp gets the reject', async () => {
    const callId = await ringing()
    const { status, body } = await reject(callId)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({ sessionId, callId, from: `${CALLER}@s.whatsapp.net`, rejected: true })
    expect(await t.sim.account(ACCOUNT).waitForCallResponse(callId)).toBe('reject')
    expect(t.sim.violations()).toEqual([])
  })

  it('answers 404 for a call rejected already, hung up, or never offered', async () => {
    const rejected = await ringing()
    expect((await reject(rejected)).status).toBe(200)
    expect(await reject(rejected)).toMatchObject({ status: 404, body: { error: 'not_found' } })

    const hungUp = await ringing()
    t.sim.contact(CALLER).hangUp(hungUp, ACCOUNT)
    // A call offered after the hang-up is seen only once the hang-up was read (one socket, in order).
    await ringing()
    expect(await reject(hungUp)).toMatchObject({ status: 404, body: { error: 'not_found' } })
    expect(
      t.sim
        .account(ACCOUNT)
        .calls()
        .find((call) => call.callId === hungUp)?.response,
    ).toBeUndefined()

    expect(await reject('CALL-NEVER-OFFERED')).toMatchObject({ status: 404, body: { error: 'not_found' } })
    expect(t.sim.violations()).toEqual([])
  })

  it('keeps workspaces apart and refuses malformed requests', async () => {
    const callId = await ringing()
    const other = t.addWorkspace('other-caller')
    expect((await reject(callId, sessionId, other.key)).status).toBe(404)
    expect((await t.post(`/v1/call/${callId}/reject`, {})).status).toBe(400)
    expect((await t.post(`/v1/call/${callId}/reject`, { sessionId, extra: 1 })).status).toBe(400)
    expect((await reject('x'.repeat(129))).status).toBe(400)
    // Still ringing after all that: the right workspace rejects it.
    expect((await reject(callId)).status).toBe(200)
  })
})
