import { proto } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { INTERACTIVE_STANZA_NODES } from '../../../../src/engine/whatsapp/messages/interactive'
import { toSendPlan } from '../../../../src/engine/whatsapp/messages/outbound-content'

const bytes = new Uint8Array([1, 2, 3])

describe('toSendPlan', () => {
  it('sends text as Baileys text content, with linkPreview null so Baileys never looks for one itself', () => {
    expect(toSendPlan({ kind: 'text', text: 'hi' })).toEqual({
      via: 'content',
      content: { text: 'hi', linkPreview: null },
    })
  })

  it('hands Baileys the preview the services made, in its urlInfo shape', () => {
    const plan = toSendPlan({
      kind: 'text',
      text: 'see https://a.test/x',
      preview: {
        matchedText: 'https://a.test/x',
        canonicalUrl: 'https://a.test/x/',
        title: 'A',
        jpegThumbnail: bytes,
      },
    })
    expect(plan).toEqual({
      via: 'content',
      content: {
        text: 'see https://a.test/x',
        linkPreview: {
          'canonical-url': 'https://a.test/x/',
          'matched-text': 'https://a.test/x',
          title: 'A',
          jpegThumbnail: Buffer.from(bytes),
        },
      },
    })
  })

  it('forwards the kept proto under its original key, forced to show as forwarded even when it was ours', () => {
    const payload = proto.Message.encode({ conversation: 'hello' }).finish()
    const plan = toSendPlan({
      kind: 'forward',
      original: { id: 'ABC', chatJid: '1@s.whatsapp.net', fromMe: true, payload },
    })
    expect(plan).toMatchObject({
      via: 'content',
      content: { forward: { key: { remoteJid: '1@s.whatsapp.net', id: 'ABC', fromMe: true } }, force: true },
    })
    if (plan.via !== 'content' || !('forward' in plan.content)) throw new Error('expected forward content')
    expect(plan.content.forward.message?.conversation).toBe('hello')
  })

  it('sends an image with its real mimetype, dimensions and caption', () => {
    const plan = toSendPlan({ kind: 'image', data: bytes, mimetype: 'image/png', width: 4, height: 3, caption: 'c' })
    expect(plan).toMatchObject({
      via: 'content',
      content: { mimetype: 'image/png', width: 4, height: 3, caption: 'c' },
    })
    expect(plan.via === 'content' && Buffer.isBuffer((plan.content as { image: Buffer }).image)).toBe(true)
  })

  it('sends audio files as audio and voice notes as ptt with seconds, patching the waveform in', () => {
    expect(toSendPlan({ kind: 'audio', data: bytes, mimetype: 'audio/mpeg', seconds: 7 })).toMatchObject({
      content: { ptt: false, mimetype: 'audio/mpeg', seconds: 7 },
    })
    const waveform = new Uint8Array([0, 50, 100])
    const plan = toSendPlan({ kind: 'voice', data: bytes, mimetype: 'audio/ogg; codecs=opus', seconds: 3, waveform })
    expect(plan).toMatchObject({
      via: 'content',
      content: { ptt: true, seconds: 3, mimetype: 'audio/ogg; codecs=opus' },
    })
    const message: proto.IMessage = { audioMessage: { ptt: true } }
    if (plan.via === 'content') plan.patch?.(message)
    expect(message.audioMessage?.waveform).toEqual(waveform)
  })

  it('marks animated stickers', () => {
    expect(
      toSendPlan({ kind: 'sticker', data: bytes, mimetype: 'image/webp', animated: true, width: 512, height: 512 }),
    ).toMatchObject({
      content: { isAnimated: true, mimetype: 'image/webp', width: 512, height: 512 },
    })
  })

  it('sends coordinates as a location', () => {
    expect(toSendPlan({ kind: 'location', latitude: -33.9, longitude: 151.2 })).toEqual({
      via: 'content',
      content: { location: { degreesLatitude: -33.9, degreesLongitude: 151.2 } },
    })
  })

  it('builds a native-flow list: one single_select button holding the sections, with the biz stanza node', () => {
    const plan = toSendPlan({
      kind: 'list',
      text: 'Pick one',
      buttonText: 'Menu',
      title: 'Title',
      footer: 'Footer',
      sections: [
        {
          title: 'S',
          rows: [
            { title: 'A', rowId: 'a', description: 'first' },
            { title: 'B', rowId: 'b' },
          ],
        },
      ],
    })
    expect(plan.via).toBe('proto')
    if (plan.via !== 'proto') return
    expect(plan.additionalNodes).toBe(INTERACTIVE_STANZA_NODES)
    const interactive = plan.message.viewOnceMessage?.message?.interactiveMessage
    expect(interactive?.body?.text).toBe('Pick one')
    expect(interactive?.header?.title).toBe('Title')
    expect(interactive?.footer?.text).toBe('Footer')
    const [button] = interactive?.nativeFlowMessage?.buttons ?? []
    expect(button?.name).toBe('single_select')
    expect(JSON.parse(button!.buttonParamsJson!)).toEqual({
      title: 'Menu',
      sections: [
        {
          title: 'S',
          rows: [
            { id: 'a', title: 'A', description: 'first' },
            { id: 'b', title: 'B' },
          ],
        },
      ],
    })
    // It must survive protobuf encoding unchanged (what the engine sends).
    const roundTrip = proto.Message.decode(proto.Message.encode(plan.message).finish())
    expect(
      roundTrip.viewOnceMessage?.message?.interactiveMessage?.nativeFlowMessage?.buttons?.[0]?.buttonParamsJson,
    ).toBe(button!.buttonParamsJson)
  })

  it('builds reply buttons as quick_reply buttons carrying their ids', () => {
    const plan = toSendPlan({
      kind: 'buttons',
      text: 'Yes?',
      buttons: [
        { buttonId: 'y', buttonText: 'Yes' },
        { buttonId: 'n', buttonText: 'No' },
      ],
    })
    if (plan.via !== 'proto') throw new Error('expected a proto plan')
    const buttons = plan.message.viewOnceMessage?.message?.interactiveMessage?.nativeFlowMessage?.buttons ?? []
    expect(buttons.map((b) => [b.name, JSON.parse(b.buttonParamsJson!)])).toEqual([
      ['quick_reply', { display_text: 'Yes', id: 'y' }],
      ['quick_reply', { display_text: 'No', id: 'n' }],
    ])
    const node = INTERACTIVE_STANZA_NODES[0]!
    expect(node.tag).toBe('biz')
    expect(JSON.stringify(node)).toContain('"name":"mixed"')
  })
})
