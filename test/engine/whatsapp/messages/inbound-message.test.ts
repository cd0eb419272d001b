import { proto, type WAMessage } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { toInboundChange, toInboundMessage } from '../../../../src/engine/whatsapp/messages/inbound-message'
import { chatParty } from '../../../../src/engine/whatsapp/jid'
import { describeMessage } from '../../../../src/engine/whatsapp/messages/message-content'

const from = (key: Partial<WAMessage['key']>, message: proto.IMessage, extra: Partial<WAMessage> = {}): WAMessage => ({
  key: { id: 'ABC', remoteJid: '15551230001@s.whatsapp.net', fromMe: false, ...key },
  message,
  messageTimestamp: 1_795_000_000,
  ...extra,
})

describe('toInboundMessage', () => {
  it('maps a text from a phone-number chat, with the LID when Baileys knows it', () => {
    const mapped = toInboundMessage(
      from({ remoteJidAlt: '123456@lid' }, { conversation: 'hello' }, { pushName: 'Ann' }),
    )
    expect(mapped).toMatchObject({
      id: 'ABC',
      chatJid: '15551230001@s.whatsapp.net',
      phone: '15551230001',
      lid: '123456',
      type: 'text',
      content: { text: 'hello' },
      pushName: 'Ann',
    })
    expect(mapped?.timestamp.toISOString()).toBe(new Date(1_795_000_000_000).toISOString())
    expect(proto.Message.decode(mapped!.payload).conversation).toBe('hello')
  })

  it('resolves the phone of a LID-addressed chat from its alternate jid', () => {
    const mapped = toInboundMessage(
      from({ remoteJid: '987@lid', remoteJidAlt: '15551230002@s.whatsapp.net' }, { conversation: 'x' }),
    )
    expect(mapped).toMatchObject({ chatJid: '987@lid', phone: '15551230002', lid: '987' })
  })

  it('names the participant in groups and keeps the quoted id', () => {
    const mapped = toInboundMessage(
      from(
        { remoteJid: '1203630001@g.us', participant: '55@lid', participantAlt: '15551230003@s.whatsapp.net' },
        { extendedTextMessage: { text: 'reply', contextInfo: { stanzaId: 'Q1' } } },
      ),
    )
    expect(mapped).toMatchObject({
      chatJid: '1203630001@g.us',
      participantPhone: '15551230003',
      participantLid: '55',
      quoteId: 'Q1',
    })
    expect(mapped).not.toHaveProperty('phone')
  })

  it('maps a contact’s status to the chat status@broadcast, the poster as participant', () => {
    const mapped = toInboundMessage(
      from(
        // As Baileys decodes a status stanza: participant_pn lands in remoteJidAlt, not participantAlt.
        { remoteJid: 'status@broadcast', participant: '77@lid', remoteJidAlt: '15551230004@s.whatsapp.net' },
        { extendedTextMessage: { text: 'at the beach', backgroundArgb: 0xff128c7e, font: 2 } },
      ),
    )
    expect(mapped).toMatchObject({
      chatJid: 'status@broadcast',
      participantPhone: '15551230004',
      participantLid: '77',
      content: { text: 'at the beach' },
    })
    expect(mapped).not.toHaveProperty('phone')
  })

  it('ignores own messages, broadcast lists, channels and protocol plumbing', () => {
    expect(toInboundMessage(from({ fromMe: true }, { conversation: 'mine' }))).toBeNull()
    expect(toInboundMessage(from({ remoteJid: '1234@broadcast' }, { conversation: 'list' }))).toBeNull()
    expect(toInboundMessage(from({ remoteJid: '1234@newsletter' }, { conversation: 'post' }))).toBeNull()
    expect(
      toInboundMessage(from({ remoteJid: 'status@broadcast', participant: '77@lid' }, { protocolMessage: {} })),
    ).toBeNull()
    expect(
      toInboundMessage(from({}, { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } })),
    ).toBeNull()
    expect(toInboundMessage(from({}, { senderKeyDistributionMessage: { groupId: 'g' } }))).toBeNull()
  })
})

describe('describeMessage', () => {
  it('summarises every kind without media bytes', () => {
    expect(
      describeMessage({
        imageMessage: { caption: 'c', mimetype: 'image/jpeg', width: 2, height: 1, mediaKey: new Uint8Array(32) },
      }),
    ).toEqual({
      type: 'image',
      content: { caption: 'c', mimetype: 'image/jpeg', width: 2, height: 1 },
    })
    expect(describeMessage({ audioMessage: { ptt: true, seconds: 4, mimetype: 'audio/ogg; codecs=opus' } }).type).toBe(
      'ptt',
    )
    expect(describeMessage({ audioMessage: { ptt: false, seconds: 4 } }).type).toBe('audio')
    expect(describeMessage({ stickerMessage: { isAnimated: true } }).content).toEqual({ animated: true })
    expect(describeMessage({ locationMessage: { degreesLatitude: 1.5, degreesLongitude: -2 } }).content).toEqual({
      latitude: 1.5,
      longitude: -2,
    })
    expect(describeMessage({ buttonsResponseMessage: { selectedButtonId: 'y', selectedDisplayText: 'Yes' } })).toEqual({
      type: 'buttons_reply',
      content: { text: 'Yes', selectedId: 'y' },
    })
    expect(
      describeMessage({
        interactiveResponseMessage: { body: { text: 'A' }, nativeFlowResponseMessage: { paramsJson: '{"id":"a"}' } },
      }),
    ).toEqual({ type: 'buttons_reply', content: { text: 'A', selectedId: 'a' } })
    expect(
      describeMessage({
        pollCreationMessageV3: {
          name: 'p',
          options: [{ optionName: 'a' }, { optionName: 'b' }],
          selectableOptionsCount: 1,
        },
      }),
    ).toEqual({ type: 'poll', content: { question: 'p', options: ['a', 'b'], selectableCount: 1 } })
    expect(describeMessage({ eventMessage: { name: 'e' } })).toEqual({
      type: 'unknown',
      content: { kind: 'eventMessage' },
    })
  })
})

describe('toInboundChange', () => {
  it('reads an edit and a revoke, and nothing else', () => {
    const key = { id: 'M1', remoteJid: '15551230001@s.whatsapp.net', fromMe: false }
    expect(
      toInboundChange({ key, update: { message: { editedMessage: { message: { conversation: 'new' } } } } }),
    ).toEqual({
      kind: 'edited',
      id: 'M1',
      chatJid: key.remoteJid,
      fromMe: false,
      content: { text: 'new' },
    })
    expect(
      toInboundChange({ key, update: { messageStubType: proto.WebMessageInfo.StubType.REVOKE, message: null } }),
    ).toEqual({
      kind: 'revoked',
      id: 'M1',
      chatJid: key.remoteJid,
      fromMe: false,
    })
    expect(toInboundChange({ key, update: { status: 3 } })).toBeNull()
  })
})

describe('chat addresses', () => {
  it('tells phone, LID and group parties apart', () => {
    expect(chatParty('15551230001@s.whatsapp.net')).toEqual({ group: false, phone: '15551230001' })
    expect(chatParty('9@lid', '15551230001@s.whatsapp.net')).toEqual({ group: false, phone: '15551230001', lid: '9' })
    expect(chatParty('1@g.us')).toEqual({ group: true })
  })
})
