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

const SHOP = '15550046001'
const FRIEND = '15551460001'
const pn = (phone: string) => `${phone}@s.whatsapp.net`

/**
 * Business labels end to end: the API's changes go to the simulated phone as app-state patches
 * through Baileys' chatModify, the phone's own changes come back by server_sync, and both reach
 * the gateway's rows, the chat list and a real webhook receiver by the same path, one event each.
 */
describe('WhatsApp Business labels', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await t.request(path, {
      method,
      headers: { authorization: `Bearer ${t.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const labelEvents = () => receiver.events('main', secret).filter((e) => e.type.startsWith('label.'))
  const waitForEvents = (count: number) =>
    receiver.waitFor('main', secret, (list) => list.filter((e) => e.type.startsWith('label.')).length >= count)
  const phoneLabels = () => t.sim.account(SHOP).labels.list()
  const friendChat = async () => {
    const { body } = await call('GET', `/v1/chat/all?sessionId=${sessionId}`)
    return body.chats.find((chat: any) => chat.chat === FRIEND)
  }
  const rows = () =>
    queryFile<{ id: string; name: string; color: number }>(
      t.databasePath,
      'SELECT id, name, color FROM labels WHERE session_id = ? ORDER BY id',
      sessionId,
    )

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    t.sim.addContact(FRIEND)
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: SHOP,
      connect: { sessionName: 'main', webhookUrl: receiver.url('main') },
      scan: { businessName: 'Bike Shop' },
    }))
    t.sim.setProfile(SHOP, { business: { description: 'Bicycles and repairs' } })
    await t.sim.account(SHOP).waitForAppStateKey()
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('creates, renames and recolours a label: the phone keeps it, one event per change', async () => {
    const created = await call('POST', '/v1/label', { sessionId, name: ' New customer ', color: 3 })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect(created.body).toEqual({ sessionId, label: { id: '1', name: 'New customer', color: 3, predefinedId: null } })
    const renamed = await call('PATCH', '/v1/label/1', { sessionId, name: 'Customer' })
    expect(renamed.body).toEqual({ sessionId, label: { id: '1', name: 'Customer', color: 3, predefinedId: null } })
    const recoloured = await call('PATCH', '/v1/label/1', { sessionId, color: 19 })
    expect(recoloured.body.label).toMatchObject({ name: 'Customer', color: 19 })

    expect(phoneLabels()).toEqual([{ id: '1', name: 'Customer', color: 19, chats: [], messages: [] }])
    expect(rows()).toEqual([{ id: '1', name: 'Customer', color: 19 }])
    await waitForEvents(3)
    // Baileys reports our own patches too: the gateway writes one event per change, not two.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(labelEvents().map((e: WebhookEvent) => [e.type, e.data])).toEqual([
      ['label.upserted', { labelId: '1', name: 'New customer', color: 3, predefinedId: null }],
      ['label.upserted', { labelId: '1', name: 'Customer', color: 3, predefinedId: null }],
      ['label.upserted', { labelId: '1', name: 'Customer', color: 19, predefinedId: null }],
    ])
  })

  it('puts a label on a chat and a message, shown in the chat list and the label list', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: FRIEND, message: 'Your bike is ready' })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const messageId = sent.body.messageId as string
    expect((await friendChat()).labels).toEqual([])

    const onChat = await call('POST', '/v1/label/1/chat', { sessionId, phone: `+${FRIEND}` })
    expect(onChat).toEqual({ status: 200, body: { sessionId, labelId: '1', phone: `+${FRIEND}`, labeled: true } })
    const again = await call('POST', '/v1/label/1/chat', { sessionId, phone: FRIEND })
    expect(again.status).toBe(200)
    const onMessage = await call('POST', '/v1/label/1/message', { sessionId, messageId })
    expect(onMessage).toEqual({ status: 200, body: { sessionId, labelId: '1', messageId, labeled: true } })

    expect(phoneLabels()).toEqual([
      { id: '1', name: 'Customer', color: 19, chats: [pn(FRIEND)], messages: [`${pn(FRIEND)} ${messageId}`] },
    ])
    expect((await friendChat()).labels).toEqual([{ id: '1', name: 'Customer', color: 19 }])
    const listed = await call('GET', `/v1/label/all?sessionId=${sessionId}`)
    expect(listed.body).toEqual({
      sessionId,
      labels: [
        {
          id: '1',
          name: 'Customer',
          color: 19,
          predefinedId: null,
          chats: [FRIEND],
          messages: [{ chatJid: pn(FRIEND), messageId }],
        },
      ],
    })
    await waitForEvents(5)
    expect(
      labelEvents()
        .slice(3)
        .map((e) => [e.type, e.data]),
    ).toEqual([
      ['label.association', { labelId: '1', action: 'added', chat: FRIEND, messageId: null }],
      ['label.association', { labelId: '1', action: 'added', chat: FRIEND, messageId }],
    ])

    const offMessage = await call('DELETE', `/v1/label/1/message?sessionId=${sessionId}&messageId=${messageId}`)
    expect(offMessage.body).toEqual({ sessionId, labelId: '1', messageId, labeled: false })
    const offChat = await call('DELETE', `/v1/label/1/chat?sessionId=${sessionId}&phone=${FRIEND}`)
    expect(offChat.body).toEqual({ sessionId, labelId: '1', phone: FRIEND, labeled: false })
    expect(phoneLabels()[0]).toMatchObject({ chats: [], messages: [] })
    expect((await friendChat()).labels).toEqual([])
    await waitForEvents(7)
  })

  it('follows the phone’s own changes: new labels, associations and deletions', async () => {
    const seen = labelEvents().length
    await t.sim.account(SHOP).labels.save({ id: '7', name: 'VIP', color: 9 })
    await t.sim.account(SHOP).labels.labelChat('7', pn(FRIEND))
    await t.sim.account(SHOP).labels.labelChat('1', pn(FRIEND))
    await waitForEvents(seen + 3)
    expect((await friendChat()).labels).toEqual([
      { id: '1', name: 'Customer', color: 19 },
      { id: '7', name: 'VIP', color: 9 },
    ])
    await t.sim.account(SHOP).labels.remove('1')
    await waitForEvents(seen + 4)
    expect(
      labelEvents()
        .slice(seen)
        .map((e) => [e.type, e.data]),
    ).toEqual([
      ['label.upserted', { labelId: '7', name: 'VIP', color: 9, predefinedId: null }],
      ['label.association', { labelId: '7', action: 'added', chat: FRIEND, messageId: null }],
      ['label.association', { labelId: '1', action: 'added', chat: FRIEND, messageId: null }],
      ['label.deleted', { labelId: '1' }],
    ])
    expect((await friendChat()).labels).toEqual([{ id: '7', name: 'VIP', color: 9 }])
    expect(rows()).toEqual([{ id: '7', name: 'VIP', color: 9 }])

    // The next label takes the id after the phone's highest.
    const created = await call('POST', '/v1/label', { sessionId, name: 'Paid', color: 5 })
    expect(created.body.label.id).toBe('8')
    const deleted = await call('DELETE', `/v1/label/7?sessionId=${sessionId}`)
    expect(deleted).toEqual({ status: 200, body: { sessionId, labelId: '7', deleted: true } })
    expect(phoneLabels().map((label) => label.id)).toEqual(['8'])
    expect((await friendChat()).labels).toEqual([])
    await pollUntil(
      () =>
        labelEvents()
          .slice(seen + 4)
          .map((e) => e.type),
      (types) => types.length >= 2,
      { timeoutMs: 10_000, what: 'the create and delete events' },
    )
    expect(
      labelEvents()
        .slice(seen + 4)
        .map((e) => [e.type, e.data.labelId]),
    ).toEqual([
      ['label.upserted', '8'],
      ['label.deleted', '7'],
    ])
    expect(t.sim.violations()).toEqual([])
  })

  it('forgets the labels when the session is unlinked, and reads the phone’s again when it links anew', async () => {
    expect((await call('DELETE', `/v1/session/disconnect/${sessionId}`)).status).toBe(200)
    expect(rows()).toEqual([])
    expect((await call('GET', `/v1/label/all?sessionId=${sessionId}`)).body.labels).toEqual([])
    const relinked = await t.linkSession({
      phone: SHOP,
      connect: { sessionName: 'main', webhookUrl: receiver.url('main') },
    })
    expect(relinked.sessionId).toBe(sessionId)
    // The new device syncs the collection from the start: the phone's labels as they are now.
    await pollUntil(
      () => rows(),
      (list) => list.length === 1,
      { timeoutMs: 15_000, what: 'the phone’s labels synced to the new device' },
    )
    expect(rows()).toEqual([{ id: '8', name: 'Paid', color: 5 }])
  })
})
