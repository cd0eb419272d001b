import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../../../support/webhook-receiver'

const ACCOUNT = '15550016201'
const ANA = '15551236201'

/**
 * What the account sends from WhatsApp itself (its phone): WhatsApp relays a copy to the linked
 * device (the simulator does it as WhatsApp does), and the gateway records it as outbound with
 * source "phone" and a message.status `sent` event; its own sends are never recorded twice.
 */
describe('messages the account’s own phone sends', () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  let anaLid: string
  let restarted = false

  const start = (reuse?: SimulatedGateway) =>
    startSimulatedGateway({
      databasePath,
      config: { ...loopbackWebhooks, webhooks: fastWebhooks() },
      ...(reuse ? { reuse: { sim: reuse.sim, control: reuse.control } } : {}),
    })

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await start()
    anaLid = t.sim.addContact(ANA).lid
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'phone', webhookUrl: receiver.url('phone') },
    }))
  }, 60_000)
  afterAll(async () => {
    await t.close()
    if (restarted) {
      await t.control.stop()
      await t.sim.stop()
    }
    await receiver.close()
    dir.cleanup()
  })

  const statusEvents = (messageId: string) =>
    receiver.events('phone', secret).filter((e) => e.type === 'message.status' && e.data.messageId === messageId)
  const waitForStatusEvent = (messageId: string) =>
    receiver.waitFor('phone', secret, (list: WebhookEvent[]) =>
      list.some((e) => e.type === 'message.status' && e.data.messageId === messageId),
    )

  it('records a text the phone sent, by the chat’s LID or by number, as outbound from the phone with its event', async () => {
    for (const addressing of ['lid', 'pn'] as const) {
      const id = await t.sim
        .account(ACCOUNT)
        .sendFromPhone(ANA, { text: `typed on the phone (${addressing})` }, { addressing })
      const record = await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
      expect(record).toMatchObject({
        direction: 'outbound',
        source: 'phone',
        status: 'sent',
        type: 'text',
        phone: ANA,
        lid: `${anaLid}@lid`,
        content: { text: `typed on the phone (${addressing})` },
      })
      await waitForStatusEvent(id)
      expect(statusEvents(id).map((e) => e.data)).toEqual([
        expect.objectContaining({ status: 'sent', source: 'phone', direction: 'outbound', phone: ANA }),
      ])
    }
    // In the conversation as the API lists it, beside what the API sent.
    const sent = await t.post('/v1/message/text', { sessionId, phone: ANA, message: 'from the API' })
    const list = await t.get(`/v1/message/all?sessionId=${sessionId}&phone=${ANA}&direction=outbound`)
    expect(list.body.messages.map((m: any) => m.source)).toEqual(['api', 'phone', 'phone'])
    expect(list.body.messages[0].messageId).toBe(sent.body.messageId)
    expect(t.sim.violations()).toEqual([])
  })

  it('keeps a location the phone sent with its content', async () => {
    const location = await t.sim.account(ACCOUNT).sendFromPhone(ANA, { location: { latitude: 48.85, longitude: 2.35 } })
    expect(await t.waitForRecord(sessionId, location, (r) => r?.messageId === location)).toMatchObject({
      type: 'location',
      source: 'phone',
      content: { latitude: 48.85, longitude: 2.35 },
    })
  })

  it('never records the gateway’s own send twice when it comes back as the account’s', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: ANA, message: 'sent once' })
    expect(sent.status).toBe(200)
    const id = sent.body.messageId as string
    await t.waitForRecord(sessionId, id, (r) => r.status !== 'pending')
    // The same message id relayed to the device as the account's own (as Baileys emits own sends).
    await t.sim.account(ACCOUNT).sendFromPhone(ANA, { text: 'sent once' }, { id })
    await pollUntil(
      () => t.sim.account(ACCOUNT).unacknowledged(),
      (ids) => !ids.includes(id),
      { what: 'the copy acknowledged' },
    )
    const record = (await t.get(`/v1/message/${id}?sessionId=${sessionId}`)).body
    expect(record).toMatchObject({ source: 'api', content: { text: 'sent once' } })
    expect(queryFile(databasePath, 'SELECT id FROM messages WHERE id = ?', id)).toHaveLength(1)
    expect(statusEvents(id).some((e) => e.data.source === 'phone')).toBe(false)
  })

  it('records what the phone sent while the gateway was down, once, from WhatsApp’s offline queue', async () => {
    await t.stopGateway()
    const id = await t.sim.account(ACCOUNT).sendFromPhone(ANA, { text: 'while you were out' })
    t = await start(t)
    restarted = true
    await t.waitForStatus(sessionId, 'connected')
    const record = await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    expect(record).toMatchObject({ source: 'phone', status: 'sent', content: { text: 'while you were out' } })
    await pollUntil(
      () => t.sim.account(ACCOUNT).unacknowledged(),
      (ids) => !ids.includes(id),
      { what: 'the copy acknowledged' },
    )
    await waitForStatusEvent(id)
    expect(statusEvents(id)).toHaveLength(1)
  }, 60_000)
})
