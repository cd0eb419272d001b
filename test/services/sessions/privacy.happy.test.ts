import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550046001'
const CONTACT = '15551460001'

const ALL = {
  lastSeen: 'all',
  online: 'all',
  profilePhoto: 'all',
  about: 'all',
  groups: 'all',
  readReceipts: 'all',
  calls: 'all',
}

/**
 * The account's privacy settings through the simulator's privacy iq, which keeps every category
 * and takes only the values WhatsApp offers for each. A change shows in what WhatsApp answers,
 * and acts: read receipts turned off make the next read a read-self, as the phone would.
 */
describe('privacy settings', () => {
  let t: SimulatedGateway
  let sessionId: string

  const privacy = () => t.get(`/v1/session/${sessionId}/privacy`)
  const change = (body: unknown) =>
    t.request(`/v1/session/${sessionId}/privacy`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('private', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  it('reads every setting as WhatsApp keeps it', async () => {
    expect(await privacy()).toEqual({ status: 200, body: { sessionId, privacy: ALL } })
  })

  it('changes only the settings given, and answers them all as WhatsApp then has them', async () => {
    const response = await change({
      lastSeen: 'contacts',
      online: 'match_last_seen',
      profilePhoto: 'none',
      calls: 'known',
    })
    const body = await response.json()
    expect(response.status, JSON.stringify(body)).toBe(200)
    const expected = { ...ALL, lastSeen: 'contacts', online: 'match_last_seen', profilePhoto: 'none', calls: 'known' }
    expect(body).toEqual({ sessionId, privacy: expected })
    expect(t.sim.account(ACCOUNT).privacy()).toMatchObject({
      last: 'contacts',
      online: 'match_last_seen',
      profile: 'none',
      calladd: 'known',
      status: 'all',
    })
    // The photo is hidden from others now, as WhatsApp would hide it.
    expect(t.sim.profile(ACCOUNT).privacy.picture).toBe('none')
    expect((await privacy()).body.privacy).toEqual(expected)
    expect(t.sim.violations()).toEqual([])
  })

  it('turning read receipts off makes the next read a read-self', async () => {
    const id = await t.sim.contact(CONTACT).send({ text: 'seen?' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, id, (record) => record?.status === 'received')
    expect((await change({ readReceipts: 'none' })).status).toBe(200)
    expect(t.sim.account(ACCOUNT).privacy().readreceipts).toBe('none')
    expect((await t.post('/v1/chat/read', { sessionId, phone: CONTACT })).status).toBe(200)
    const receipt = await t.sim.account(ACCOUNT).waitForReceipt((r) => r.ids.includes(id) && r.type.startsWith('read'))
    expect(receipt.type).toBe('read-self')
  })

  it('shows a change made on the phone at once', async () => {
    t.sim.account(ACCOUNT).setReadReceipts('all')
    expect((await privacy()).body.privacy.readReceipts).toBe('all')
  })

  it('refuses values WhatsApp does not offer, empty or unknown fields, changing nothing', async () => {
    const before = t.sim.account(ACCOUNT).privacy()
    for (const body of [
      {},
      { lastSeen: 'everyone' },
      { online: 'none' },
      { groups: 'none' },
      { readReceipts: 'contacts' },
      { calls: 'none', lastSeen: 'all' },
      { lastSeen: 'all', colour: 'blue' },
      { lastSeen: null },
    ]) {
      const response = await change(body)
      expect([response.status, ((await response.json()) as { error: string }).error], JSON.stringify(body)).toEqual([
        400,
        'validation_error',
      ])
    }
    expect(t.sim.account(ACCOUNT).privacy()).toEqual(before)
  })

  it('needs the session connected', async () => {
    const disconnect = await t.request(`/v1/session/disconnect/${sessionId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.key}` },
    })
    expect(disconnect.status).toBe(200)
    expect((await privacy()).body.error).toBe('session_not_connected')
    expect((await change({ lastSeen: 'none' })).status).toBe(409)
  })
})
