import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'

const PERSONAL = '15550019501'
const BUSINESS = '15550019502'
const CONTACT = '15551239501'

/**
 * POST /v1/chat/presence through Baileys to the simulator, which records each <chatstate> and
 * <presence> the account's client sent and refuses malformed ones (a nameless account presence).
 */
describe('chat states and account presence', () => {
  let t: SimulatedGateway
  let personal: string
  let business: string

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(CONTACT)
    personal = await t.pairByQr('personal', PERSONAL)
    // A business account: WhatsApp tells its linked device the name at pairing (<biz name>).
    ;({ sessionId: business } = await t.linkSession({
      phone: BUSINESS,
      connect: { sessionName: 'business' },
      scan: { businessName: 'Acme Support' },
    }))
    // Baileys itself says unavailable once logged in (markOnlineOnConnect off): let it pass first.
    await t.sim.account(BUSINESS).waitForPresence((p) => p.kind === 'presence' && p.type === 'unavailable')
  }, 60_000)
  afterAll(async () => {
    await t.close()
  })

  const chatStates = (phone: string) =>
    t.sim
      .account(phone)
      .presence()
      .filter((p) => p.kind === 'chatstate')

  it('shows typing, recording and paused in a 1:1 chat and in a group', async () => {
    const group = t.sim.createGroup('Presence', [PERSONAL, CONTACT], PERSONAL)
    const sends = [
      [CONTACT, 'composing'],
      [CONTACT, 'recording'],
      [CONTACT, 'paused'],
      [group.jid, 'composing'],
    ] as const
    for (const [phone, state] of sends) {
      const { status, body } = await t.post('/v1/chat/presence', { sessionId: personal, phone, state })
      expect(status, JSON.stringify(body)).toBe(200)
      expect(body).toEqual({ sessionId: personal, phone, state })
    }
    await t.sim.account(PERSONAL).waitForPresence((p) => p.kind === 'chatstate' && p.to === group.jid)
    expect(chatStates(PERSONAL).map((p) => p.kind === 'chatstate' && [p.to, p.state])).toEqual([
      [`${CONTACT}@s.whatsapp.net`, 'composing'],
      [`${CONTACT}@s.whatsapp.net`, 'recording'],
      [`${CONTACT}@s.whatsapp.net`, 'paused'],
      [group.jid, 'composing'],
    ])
  })

  it('sets a named account available and unavailable', async () => {
    const before = t.sim.account(BUSINESS).presence().length
    for (const state of ['available', 'unavailable'] as const) {
      const { status, body } = await t.post('/v1/chat/presence', { sessionId: business, state })
      expect(status, JSON.stringify(body)).toBe(200)
      expect(body).toEqual({ sessionId: business, phone: null, state })
    }
    const ours = await pollUntil(
      () => t.sim.account(BUSINESS).presence().slice(before),
      (list) => list.length >= 2,
      { what: 'two presence updates' },
    )
    expect(ours).toEqual([
      expect.objectContaining({ type: 'available', name: 'Acme Support' }),
      expect.objectContaining({ type: 'unavailable', name: 'Acme Support' }),
    ])
  })

  it('refuses account presence while WhatsApp has given no profile name, sending nothing', async () => {
    const before = t.sim.account(PERSONAL).presence().length
    const { status, body } = await t.post('/v1/chat/presence', { sessionId: personal, state: 'available' })
    expect([status, body.error, body.details?.reason]).toEqual([502, 'upstream_error', 'no_profile_name'])
    await sleep(100)
    expect(t.sim.account(PERSONAL).presence().length).toBe(before)
  })

  it('is 400 for a chat state without a chat, an account state with one, or an unknown state', async () => {
    for (const body of [
      { sessionId: personal, state: 'composing' },
      { sessionId: personal, state: 'available', phone: CONTACT },
      { sessionId: personal, state: 'typing', phone: CONTACT },
      { sessionId: personal, state: 'paused', phone: 'not a phone' },
      { sessionId: personal, phone: CONTACT },
    ]) {
      const answer = await t.post('/v1/chat/presence', body)
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, 'validation_error'])
    }
  })

  it('left the simulator no protocol violations', () => {
    expect(t.sim.violations()).toEqual([])
  })
})
