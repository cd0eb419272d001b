import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550033001'
const CONTACT = '15551233002'

/**
 * The mistakes of a first hour with the gateway, each answered with the next step in `message`
 * (the codes stay as they were): through HTTP, the real Baileys client against the simulator.
 */
describe('errors name the next step', () => {
  let t: SimulatedGateway
  let sessionId: string
  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid' })
    t.sim.addContact(CONTACT)
    sessionId = (await t.linkSession({ phone: ACCOUNT, connect: { sessionName: 'sales' } })).sessionId
  }, 60_000)
  afterAll(() => t.close())

  it('a send through a session still pending points at its QR and the panel', async () => {
    const { body: pending } = await t.connect({ sessionName: 'not-scanned-yet' })
    const sent = await t.post('/v1/message/text', { sessionId: pending.sessionId, phone: CONTACT, message: 'hi' })
    expect(sent.status).toBe(409)
    expect(sent.body).toMatchObject({ error: 'session_not_connected', details: { status: 'pending' } })
    expect(sent.body.message).toContain(`GET /v1/session/${pending.sessionId}/qr`)
    expect(sent.body.message).toContain('/panel')
    // A finished session says to pair again instead.
    await t.request(`/v1/session/disconnect/${pending.sessionId}`, { method: 'DELETE' })
    const again = await t.post('/v1/message/text', { sessionId: pending.sessionId, phone: CONTACT, message: 'hi' })
    expect(again.status).toBe(409)
    expect(again.body.message).toMatch(/disconnected, not connected; nothing was done\. Pair it again with POST \/v1\/session\/connect/)
  })

  it('a number WhatsApp does not know that starts with 00 or 0, or is short, says it may lack its country code', async () => {
    const send = (phone: string) => t.post('/v1/message/text', { sessionId, phone, message: 'hi' })
    const doubleZero = await send('0015551239999')
    expect(doubleZero.status).toBe(404)
    expect(doubleZero.body.message).toMatch(/has no WhatsApp account; it starts with 00: write the country code without the 00 \(1555… rather than 001555…\)/)
    const trunk = await send('07911 123456')
    expect(trunk.body.message).toMatch(/starts with 0, which no country code does/)
    const national = await send('555 123 9999')
    expect(national.body.message).toMatch(/if 10 digits is a national number, write it with its country code first/)
    // A full international number gets no such hint: it is just not on WhatsApp.
    const full = await send('+44 7911 123456')
    expect(full.status).toBe(404)
    expect(full.body.message).toBe('447911123456 has no WhatsApp account; nothing was sent or recorded')

    const checked = await t.post('/v1/contact/check', {
      sessionId,
      phones: ['0015551239999', '+44 7911 123456', CONTACT],
    })
    expect(checked.status).toBe(200)
    const [prefixed, international, known] = checked.body.results
    expect(prefixed).toMatchObject({ exists: false, hint: expect.stringMatching(/starts with 00/) })
    expect(international).toEqual({ phone: '+44 7911 123456', exists: false })
    expect(known).not.toHaveProperty('hint')

    const profile = await t.get(`/v1/contact/${encodeURIComponent('0015551239999')}/profile?sessionId=${sessionId}`)
    expect(profile.status).toBe(404)
    expect(profile.body.message).toMatch(/^0015551239999 has no WhatsApp account; it starts with 00/)
  })

  it('a session name where the id goes says the id, in the caller’s workspace only', async () => {
    const byName = await t.get('/v1/session/sales/qr')
    expect(byName.status).toBe(404)
    expect(byName.body).toEqual({
      error: 'not_found',
      message: `Session "sales" not found: "sales" is a session's name; its id is "${sessionId}" (the sessionId connect answered), use that`,
      details: { sessionName: 'sales', sessionId },
    })
    // In a query and in a body too: the one lookup every route goes through.
    expect((await t.get('/v1/message/all?sessionId=sales')).body.details).toEqual({ sessionName: 'sales', sessionId })
    const sent = await t.post('/v1/message/text', { sessionId: 'sales', phone: CONTACT, message: 'hi' })
    expect(sent.body.details).toEqual({ sessionName: 'sales', sessionId })
    expect((await t.get('/v1/session/sales/webhooks')).body.details).toEqual({ sessionName: 'sales', sessionId })

    // Another workspace with no session of that name: the plain 404, nothing of ours.
    const other = t.addWorkspace('other-team', 'paid')
    for (const path of ['/v1/session/sales/qr', '/v1/message/all?sessionId=sales', '/v1/session/sales/webhooks']) {
      const stranger = await t.get(path, other.key)
      expect(stranger.status, path).toBe(404)
      expect(stranger.body, path).toEqual({ error: 'not_found', message: 'Session "sales" not found', details: {} })
    }
    // Nor does our own id leak to it.
    const strangerById = await t.get(`/v1/session/${sessionId}/qr`, other.key)
    expect(strangerById.body).toEqual({ error: 'not_found', message: `Session "${sessionId}" not found`, details: {} })
  })
})
