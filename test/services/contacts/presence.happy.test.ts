import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../support/poll'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const ACCOUNT = '15550045001'
const FRIEND = '15551450001'
const SHY = '15551450002'
const STRANGER = '15551450003'
const NOBODY = '15551459999'

/**
 * Presence end to end: the subscription goes to the simulator as Baileys' presenceSubscribe
 * sends it, and the simulator, like WhatsApp, relays a contact's state and typing only to a
 * connection that subscribed. Each arrives as a presence.update event at a real receiver, in order.
 */
describe('following a contact’s presence', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string

  const subscribe = (phone: string, session = sessionId) =>
    t.post(`/v1/contact/${encodeURIComponent(phone)}/presence/subscribe`, { sessionId: session })
  const presences = (phone: string) =>
    receiver.events('main', secret).filter((e) => e.type === 'presence.update' && e.data.phone === phone)
  const waitForPresence = (phone: string, match: (data: WebhookEvent['data']) => boolean) =>
    receiver.waitFor('main', secret, (list) =>
      list.some((e) => e.type === 'presence.update' && e.data.phone === phone && match(e.data)),
    )

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    for (const phone of [FRIEND, SHY, STRANGER]) t.sim.addContact(phone)
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'main', webhookUrl: receiver.url('main') },
    }))
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('subscribes: the contact’s state now, then each change and its typing, in order', async () => {
    const { status, body } = await subscribe(`+${FRIEND}`)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({ sessionId, phone: FRIEND, lid: `${t.sim.contact(FRIEND).lid}@lid`, subscribed: true })
    // Offline since it was added: its last seen, shared, comes first.
    await waitForPresence(FRIEND, (data) => data.state === 'unavailable')
    expect(t.sim.account(ACCOUNT).presenceSubscriptions()).toEqual([FRIEND])
    t.sim.contact(FRIEND).setPresence('available')
    expect(t.sim.contact(FRIEND).chatState('composing', ACCOUNT)).toBe(true)
    expect(t.sim.contact(FRIEND).chatState('paused', ACCOUNT)).toBe(true)
    expect(t.sim.contact(FRIEND).chatState('recording', ACCOUNT)).toBe(true)
    t.sim.contact(FRIEND).setPresence('unavailable')
    await waitForPresence(FRIEND, (data) => data.state === 'unavailable' && presences(FRIEND).length === 6)

    const list = presences(FRIEND).map((e) => e.data)
    expect(list.map((data) => data.state)).toEqual([
      'unavailable',
      'available',
      'composing',
      'paused',
      'recording',
      'unavailable',
    ])
    for (const data of list) expect(data).toMatchObject({ phone: FRIEND, group: null })
    expect(list[0]!.lastSeen).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(list[1]!.lastSeen).toBeNull()
    // Going offline just now: the last seen is now, to the second.
    expect(Math.abs(Date.parse(list[5]!.lastSeen) - Date.now())).toBeLessThan(10_000)
    expect(t.sim.violations()).toEqual([])
  })

  it('says nothing of someone the session did not subscribe to', async () => {
    expect(t.sim.contact(STRANGER).chatState('composing', ACCOUNT)).toBe(false)
    t.sim.contact(STRANGER).setPresence('available')
    // A later event of someone followed arrives; the stranger's would have come first.
    t.sim.contact(FRIEND).setPresence('available')
    await waitForPresence(FRIEND, () => presences(FRIEND).length === 7)
    expect(presences(STRANGER)).toEqual([])
  })

  it('gives no last seen where the contact’s privacy hides it', async () => {
    t.sim.contact(SHY).setPresence('unavailable', { lastSeen: 'hidden' })
    expect((await subscribe(SHY)).status).toBe(200)
    await waitForPresence(SHY, (data) => data.state === 'unavailable')
    expect(presences(SHY)[0]!.data).toMatchObject({ state: 'unavailable', lastSeen: null })
  })

  it('is idempotent, kept in the database, and asked again after the next login', async () => {
    expect((await subscribe(FRIEND)).status).toBe(200)
    const rows = () =>
      queryFile<{ jid: string }>(
        t.databasePath,
        'SELECT jid FROM presence_subscriptions WHERE session_id = ? ORDER BY jid',
        sessionId,
      ).map((row) => row.jid)
    expect(rows()).toEqual([`${FRIEND}@s.whatsapp.net`, `${SHY}@s.whatsapp.net`])

    const before = t.sim.account(ACCOUNT).stats().connections
    expect((await t.post(`/v1/session/${sessionId}/restart`, {})).status).toBe(200)
    await t.waitForStatus(sessionId, 'connected')
    await pollUntil(
      () => t.sim.account(ACCOUNT).presenceSubscriptions().sort(),
      (phones) => phones.join() === [FRIEND, SHY].sort().join(),
      { timeoutMs: 10_000, what: 'both subscriptions asked again' },
    )
    expect(t.sim.account(ACCOUNT).stats().connections).toBe(before + 1)
    expect(t.sim.contact(FRIEND).chatState('composing', ACCOUNT)).toBe(true)
    await waitForPresence(FRIEND, (data) => data.state === 'composing' && presences(FRIEND).length >= 9)
  })

  it('unsubscribes: WhatsApp stops relaying, the row goes, and again answers the same', async () => {
    const unsubscribe = () => t.post(`/v1/contact/${SHY}/presence/unsubscribe`, { sessionId })
    const { status, body } = await unsubscribe()
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({ sessionId, phone: SHY, lid: null, subscribed: false })
    await pollUntil(
      () => t.sim.account(ACCOUNT).presenceSubscriptions(),
      (phones) => !phones.includes(SHY),
      { timeoutMs: 10_000, what: 'the unsubscribe at the simulator' },
    )
    expect(t.sim.contact(SHY).chatState('composing', ACCOUNT)).toBe(false)
    expect(queryFile(t.databasePath, 'SELECT jid FROM presence_subscriptions WHERE session_id = ?', sessionId)).toEqual(
      [{ jid: `${FRIEND}@s.whatsapp.net` }],
    )
    expect((await unsubscribe()).body).toMatchObject({ subscribed: false })
    expect(t.sim.violations()).toEqual([])
  })

  it('refuses what cannot be followed, storing nothing', async () => {
    const count = () =>
      queryFile<{ n: number }>(t.databasePath, 'SELECT count(*) AS n FROM presence_subscriptions')[0]!.n
    const stored = count()
    expect(await subscribe(NOBODY)).toMatchObject({ status: 404, body: { error: 'not_found' } })
    expect(await subscribe(ACCOUNT)).toMatchObject({ status: 400, body: { error: 'validation_error' } })
    expect(await subscribe('not-a-phone')).toMatchObject({ status: 400, body: { error: 'validation_error' } })
    expect((await subscribe(FRIEND, 'ses_aaaaaaaaaaaaaaaaaaaaaaaa')).status).toBe(404)
    expect((await t.post(`/v1/contact/${FRIEND}/presence/subscribe`, { sessionId, extra: true })).status).toBe(400)
    expect(count()).toBe(stored)
  })
})
