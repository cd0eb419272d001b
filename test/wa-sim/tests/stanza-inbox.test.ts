import type { WASocket } from '@whiskeysockets/baileys'
import { proto } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554000001'
const ALICE = '15554000101'
const BOB = '15554000102'

/** The <biz> node current WhatsApp clients attach to native-flow interactive messages. */
const BIZ_NODE = {
  tag: 'biz',
  attrs: {},
  content: [
    {
      tag: 'interactive',
      attrs: { type: 'native_flow', v: '1' },
      content: [{ tag: 'native_flow', attrs: { v: '9', name: 'mixed' } }],
    },
  ],
}

const interactive = (): proto.Message.IInteractiveMessage => ({
  header: { title: 'Menu', hasMediaAttachment: false },
  body: { text: 'Pick one' },
  footer: { text: 'footer' },
  nativeFlowMessage: {
    buttons: [
      {
        name: 'single_select',
        buttonParamsJson: JSON.stringify({
          title: 'Options',
          sections: [{ title: 'S', rows: [{ id: 'r1', title: 'Row 1' }] }],
        }),
      },
      { name: 'quick_reply', buttonParamsJson: JSON.stringify({ display_text: 'Yes', id: 'yes' }) },
    ],
    messageParamsJson: '',
  },
})

describe('inbox entries: ids, stanza shape, interactive, edits and revokes', () => {
  let sim: WhatsAppSimulator
  let sock: WASocket
  let api: ControlApi
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    api = await ControlApi.start(sim)
    sim.addContact(ALICE)
    sim.addContact(BOB)
    sock = (await pairByQr(sim, ACCOUNT)).sock
  })
  afterAll(async () => {
    closeSocket(sock)
    await api.stop()
    await sim.stop()
  })

  it('keeps the stanza id (Baileys key.id) and the stanza type on each entry', async () => {
    const sent = await sock.sendMessage(`${ALICE}@s.whatsapp.net`, { text: 'id check' })
    const received = await sim
      .contact(ALICE)
      .waitForMessage(
        (m) => m.message.conversation === 'id check' || m.message.extendedTextMessage?.text === 'id check',
      )
    expect(received.id).toBe(sent!.key.id)
    expect(received).toMatchObject({ from: ACCOUNT, chat: `${ALICE}@s.whatsapp.net`, stanza: { type: 'text' } })
    // Baileys adds a <reporting> token to some messages at random; nothing else rides along a plain text.
    expect(received.stanza.nodes.filter((node) => node.tag !== 'reporting')).toEqual([])
    expect(received.stanza.edit).toBeUndefined()
    expect(typeof received.timestamp).toBe('number')
  })

  it('records a native-flow interactive message (bare and view-once wrapped) with its <biz> node', async () => {
    const jid = `${ALICE}@s.whatsapp.net`
    const bare = proto.Message.fromObject({ interactiveMessage: interactive() })
    const wrapped = proto.Message.fromObject({
      viewOnceMessage: {
        message: {
          messageContextInfo: { deviceListMetadataVersion: 2, deviceListMetadata: {} },
          interactiveMessage: interactive(),
        },
      },
    })
    const wrappedV2 = proto.Message.fromObject({
      viewOnceMessageV2: { message: { interactiveMessage: interactive() } },
    })
    const cases = [
      ['3EB0INTERACTIVE01', bare],
      ['3EB0INTERACTIVE02', wrapped],
      ['3EB0INTERACTIVE03', wrappedV2],
    ] as const
    for (const [messageId, message] of cases) {
      await sock.relayMessage(jid, message, { messageId, additionalNodes: [BIZ_NODE] })
      const received = await sim.contact(ALICE).waitForMessage((m) => m.id === messageId)
      const payload =
        received.message.interactiveMessage ??
        received.message.viewOnceMessage?.message?.interactiveMessage ??
        received.message.viewOnceMessageV2?.message?.interactiveMessage
      expect(payload?.body?.text).toBe('Pick one')
      expect(payload?.nativeFlowMessage?.buttons?.map((b) => b.name)).toEqual(['single_select', 'quick_reply'])
      expect(received.stanza.nodes).toEqual([BIZ_NODE])
    }
    expect(
      sim
        .contact(ALICE)
        .inbox()
        .find((m) => m.id === '3EB0INTERACTIVE02')?.message.viewOnceMessage,
    ).toBeTruthy()
    // Over the control API: the same entry, message as JSON, stanza as recorded
    const inbox = (await (await fetch(`${api.url}/contacts/${ALICE}/inbox`)).json()) as any[]
    const entry = inbox.find((m) => m.id === '3EB0INTERACTIVE02')
    expect(Object.keys(entry).sort()).toEqual(['chat', 'from', 'id', 'message', 'stanza', 'timestamp'])
    expect(entry).toMatchObject({
      from: ACCOUNT,
      chat: `${ALICE}@s.whatsapp.net`,
      stanza: { type: 'text', nodes: [BIZ_NODE] },
    })
    expect(entry.message.viewOnceMessage.message.interactiveMessage.nativeFlowMessage.buttons[1]).toEqual({
      name: 'quick_reply',
      buttonParamsJson: '{"display_text":"Yes","id":"yes"}',
    })
    expect(sim.violations()).toEqual([])
  })

  it('shows 1:1 edits and revokes from the account as protocol messages with the edit attribute', async () => {
    const jid = `${BOB}@s.whatsapp.net`
    const sent = await sock.sendMessage(jid, { text: 'draft' })
    // Baileys' event buffer later merges the revoke's update (carrying the revoke's own key) into `sent`
    const originalId = sent!.key.id
    const edit = await sock.sendMessage(jid, { text: 'final', edit: { ...sent!.key } })
    const revoke = await sock.sendMessage(jid, { delete: { ...sent!.key } })
    const edited = await sim.contact(BOB).waitForMessage((m) => m.id === edit!.key.id)
    expect(edited.stanza.edit).toBe('1')
    expect(edited.message.protocolMessage).toMatchObject({
      type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
      key: { id: originalId },
    })
    expect(
      edited.message.protocolMessage?.editedMessage?.conversation ??
        edited.message.protocolMessage?.editedMessage?.extendedTextMessage?.text,
    ).toBe('final')
    const revoked = await sim.contact(BOB).waitForMessage((m) => m.id === revoke!.key.id)
    expect(revoked.stanza.edit).toBe('7')
    expect(revoked.message.protocolMessage).toMatchObject({
      type: proto.Message.ProtocolMessage.Type.REVOKE,
      key: { id: originalId },
    })
    expect(sim.violations()).toEqual([])
  })

  it('shows group edits and revokes from the account to every participant', async () => {
    const group = sim.createGroup('Edits', [ALICE, BOB])
    const sent = await sock.sendMessage(group.jid, { text: 'group draft' })
    const originalId = sent!.key.id
    const edit = await sock.sendMessage(group.jid, { text: 'group final', edit: { ...sent!.key } })
    const revoke = await sock.sendMessage(group.jid, { delete: { ...sent!.key } })
    for (const phone of [ALICE, BOB]) {
      const edited = await sim.contact(phone).waitForMessage((m) => m.id === edit!.key.id)
      expect(edited).toMatchObject({
        chat: group.jid,
        stanza: { edit: '1' },
        message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT } },
      })
      const revoked = await sim.contact(phone).waitForMessage((m) => m.id === revoke!.key.id)
      expect(revoked).toMatchObject({
        chat: group.jid,
        stanza: { edit: '7' },
        message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: originalId } } },
      })
    }
    expect(sim.violations()).toEqual([])
  })
})
