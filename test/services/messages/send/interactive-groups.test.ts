import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550011001'
const ALICE = '15551231001'
const BOB = '15551231002'

describe('interactive messages and groups (paid plan)', () => {
  let t: SimulatedGateway
  let sessionId: string

  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid', config: { allowPrivateAddresses: true } })
    t.sim.addContact(ALICE)
    t.sim.addContact(BOB)
    sessionId = await t.pairByQr('business', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  const inboxOf = (phone: string, messageId: string) => t.sim.contact(phone).waitForMessage((m) => m.id === messageId)

  it('sends a list as a native-flow interactive message with the biz stanza node', async () => {
    const sections = [
      {
        title: 'Drinks',
        rows: [
          { title: 'Tea', rowId: 'tea', description: 'green' },
          { title: 'Coffee', rowId: 'coffee' },
        ],
      },
      { title: 'Food', rows: [{ title: 'Cake', rowId: 'cake' }] },
    ]
    const { status, body } = await t.post('/v1/message/list', {
      sessionId,
      phone: ALICE,
      text: 'Menu',
      buttonText: 'Open',
      title: 'Café',
      footer: 'thanks',
      sections,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ type: 'list', content: { text: 'Menu', buttonText: 'Open', sections } })
    const entry = await inboxOf(ALICE, body.messageId)
    const interactive = entry.message.viewOnceMessage?.message?.interactiveMessage
    expect(interactive?.body?.text).toBe('Menu')
    expect(interactive?.header?.title).toBe('Café')
    expect(interactive?.footer?.text).toBe('thanks')
    const button = interactive?.nativeFlowMessage?.buttons?.[0]
    expect(button?.name).toBe('single_select')
    expect(JSON.parse(button!.buttonParamsJson!).sections[0].rows[0]).toEqual({
      id: 'tea',
      title: 'Tea',
      description: 'green',
    })
    const biz = entry.stanza.nodes.find((node) => node.tag === 'biz')
    expect(biz?.content?.[0]).toMatchObject({ tag: 'interactive', attrs: { type: 'native_flow', v: '1' } })
    expect(biz?.content?.[0]?.content?.[0]).toMatchObject({ tag: 'native_flow', attrs: { name: 'mixed' } })
  })

  it('sends reply buttons, accepting the SDK’s text for a button’s buttonText and for message', async () => {
    const { status, body } = await t.post('/v1/message/buttons', {
      sessionId,
      to: BOB,
      text: 'Coming?',
      footer: 'reply below',
      buttons: [
        { buttonId: 'yes', buttonText: 'Yes' },
        { buttonId: 'no', text: 'No' },
      ],
    })
    expect(status).toBe(200)
    expect(body.content.buttons).toEqual([
      { buttonId: 'yes', buttonText: 'Yes' },
      { buttonId: 'no', buttonText: 'No' },
    ])
    const buttons =
      (await inboxOf(BOB, body.messageId)).message.viewOnceMessage?.message?.interactiveMessage?.nativeFlowMessage
        ?.buttons ?? []
    expect(buttons.map((b) => [b.name, JSON.parse(b.buttonParamsJson!)])).toEqual([
      ['quick_reply', { display_text: 'Yes', id: 'yes' }],
      ['quick_reply', { display_text: 'No', id: 'no' }],
    ])
  })

  it('sends text, a location and a list to a group the account is in: every member decrypts them', async () => {
    const group = t.sim.createGroup('Team', [ACCOUNT, ALICE, BOB], ACCOUNT)
    const text = await t.post('/v1/message/text', { sessionId, phone: group.jid, message: 'hello team' })
    expect(text.status).toBe(200)
    expect(text.body.phone).toBe(group.jid)
    for (const member of [ALICE, BOB]) {
      const entry = await inboxOf(member, text.body.messageId)
      expect(entry.chat).toBe(group.jid)
      expect(entry.message.conversation ?? entry.message.extendedTextMessage?.text).toBe('hello team')
    }
    const location = await t.post('/v1/message/location', {
      sessionId,
      phone: group.jid,
      latitude: 48.8584,
      longitude: 2.2945,
    })
    expect((await inboxOf(BOB, location.body.messageId)).message.locationMessage?.degreesLatitude).toBe(48.8584)
    const list = await t.post('/v1/message/list', {
      sessionId,
      phone: group.jid,
      text: 'Vote',
      buttonText: 'Pick',
      sections: [{ title: 'Days', rows: [{ title: 'Mon', rowId: 'mon' }] }],
    })
    expect(list.status).toBe(200)
    expect(
      (await inboxOf(ALICE, list.body.messageId)).message.viewOnceMessage?.message?.interactiveMessage?.body?.text,
    ).toBe('Vote')
    expect(t.sim.violations()).toEqual([])
  })
})

describe('interactive messages on the free plan', () => {
  let t: SimulatedGateway
  let sessionId: string
  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'free' })
    t.sim.addContact(ALICE)
    sessionId = await t.pairByQr('free', '15550011002')
  }, 60_000)
  afterAll(() => t.close())

  it('answers 403 plan_required for lists and buttons, and sends nothing', async () => {
    const list = await t.post('/v1/message/list', {
      sessionId,
      phone: ALICE,
      text: 'x',
      buttonText: 'y',
      sections: [{ title: 's', rows: [{ title: 'r', rowId: 'r' }] }],
    })
    expect(list.status).toBe(403)
    expect(list.body).toMatchObject({ error: 'plan_required', details: { feature: 'list', plan: 'free' } })
    const buttons = await t.post('/v1/message/buttons', {
      sessionId,
      phone: ALICE,
      message: 'x',
      buttons: [{ buttonId: 'a', buttonText: 'A' }],
    })
    expect(buttons.status).toBe(403)
    expect(t.sim.contact(ALICE).inbox()).toEqual([])
    expect((await t.get(`/v1/message/all?sessionId=${sessionId}`)).body.messages).toEqual([])
  })
})
