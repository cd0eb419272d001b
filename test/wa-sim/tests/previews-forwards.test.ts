import { generateMessageIDV2, type WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../fixtures'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554610001'
const ANA = '15554610101'

/**
 * What the simulator's recipient checks in link previews and forward marks, against the real
 * Baileys client: a well-formed preview and forward pass and reach the inbox as sent; a thumbnail
 * that is no JPEG, a matchedText not in the text, or isForwarded without a score are violations.
 */
describe('link previews and forwards as a recipient checks them (real Baileys)', () => {
  let sim: WhatsAppSimulator
  let sock: WASocket
  const to = `${ANA}@s.whatsapp.net`

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    sim.addContact(ANA)
    sock = (await pairByQr(sim, ACCOUNT)).sock
  })
  afterAll(async () => {
    closeSocket(sock)
    await sim.stop()
  })

  const kinds = (from: number) =>
    sim
      .violations()
      .slice(from)
      .map((v) => v.kind)
  const preview = (fields: Record<string, unknown>) => ({
    'canonical-url': 'https://a.test/',
    'matched-text': 'https://a.test/',
    title: 'A',
    ...fields,
  })

  it('takes a preview with a JPEG thumbnail and a forwarded text, and keeps their fields in the inbox', async () => {
    const jpeg = fixture('jpeg').bytes
    const sent = await sock.sendMessage(to, {
      text: 'see https://a.test/',
      linkPreview: preview({ description: 'D', jpegThumbnail: jpeg }),
    })
    const got = await sim.contact(ANA).waitForMessage((m) => m.id === sent!.key.id)
    expect(got.message.extendedTextMessage).toMatchObject({
      matchedText: 'https://a.test/',
      title: 'A',
      description: 'D',
    })
    expect(Buffer.from(got.message.extendedTextMessage!.jpegThumbnail!).equals(jpeg)).toBe(true)

    const forwarded = await sock.sendMessage(to, {
      forward: { key: sent!.key, message: got.message },
      force: true,
    })
    const copy = await sim.contact(ANA).waitForMessage((m) => m.id === forwarded!.key.id)
    expect(copy.message.extendedTextMessage?.contextInfo).toMatchObject({ isForwarded: true, forwardingScore: 1 })
    expect(sim.violations()).toEqual([])
  })

  it('records a thumbnail that is not a JPEG, and a matchedText that is not in the text', async () => {
    const start = sim.violations().length
    await sock.sendMessage(to, {
      text: 'see https://a.test/',
      linkPreview: preview({ jpegThumbnail: fixture('png').bytes }),
    })
    await sock.sendMessage(to, { text: 'no link here', linkPreview: preview({}) })
    await expect
      .poll(() => kinds(start), { timeout: 5000 })
      .toEqual(['malformed-link-preview', 'malformed-link-preview'])
    const details = sim
      .violations()
      .slice(start)
      .map((v) => v.detail)
    expect(details[0]).toMatch(/jpegThumbnail that is not a JPEG/)
    expect(details[1]).toMatch(/matchedText "https:\/\/a.test\/" is not in the text/)
  })

  it('records isForwarded without a forwardingScore', async () => {
    const start = sim.violations().length
    await sock.relayMessage(
      to,
      { extendedTextMessage: { text: 'odd', contextInfo: { isForwarded: true } } },
      { messageId: generateMessageIDV2(sock.user?.id) },
    )
    await expect.poll(() => kinds(start), { timeout: 5000 }).toEqual(['malformed-forward'])
  })
})
