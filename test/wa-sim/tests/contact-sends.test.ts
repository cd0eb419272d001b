import type { BinaryNode, WAMessage, WAMessageUpdate, WASocket } from '@whiskeysockets/baileys'
import { WAMessageStubType } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554200001'
const DAVE = '15554200101'

const post = async (base: string, path: string, body: unknown): Promise<{ status: number; json: any }> => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: await response.json() }
}

describe('a contact replies, shares a location, edits and revokes (control API, real Baileys)', () => {
  let sim: WhatsAppSimulator
  let api: ControlApi
  let sock: WASocket
  const upserts: WAMessage[] = []
  const updates: WAMessageUpdate[] = []
  /** <message> stanzas as Baileys' websocket received them, by id */
  const stanzas = new Map<string, BinaryNode>()
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    api = await ControlApi.start(sim)
    sim.addContact(DAVE)
    sock = (await pairByQr(sim, ACCOUNT)).sock
    sock.ev.on('messages.upsert', ({ messages }) => upserts.push(...messages))
    sock.ev.on('messages.update', (batch) => updates.push(...batch))
    sock.ws.on('CB:message', (node: BinaryNode) => stanzas.set(node.attrs.id ?? '', node))
  })
  afterAll(async () => {
    closeSocket(sock)
    await api.stop()
    await sim.stop()
  })

  const upserted = (id: string) =>
    expect.poll(() => upserts.find((m) => m.key.id === id), { timeout: 5000 }).toBeTruthy()

  it('quotes a message the account sent: contextInfo names it, its author and its content', async () => {
    const sent = await sock.sendMessage(`${DAVE}@s.whatsapp.net`, { text: 'question?' })
    const quotedId = sent!.key.id!
    await sim.contact(DAVE).waitForMessage((m) => m.id === quotedId)
    const { json } = await post(api.url, `/contacts/${DAVE}/messages`, { text: 'answer!', quoteId: quotedId })
    await upserted(json.messageId)
    const reply = upserts.find((m) => m.key.id === json.messageId)!.message!.extendedTextMessage!
    expect(reply.text).toBe('answer!')
    expect(reply.contextInfo).toMatchObject({ stanzaId: quotedId, participant: `${ACCOUNT}@s.whatsapp.net` })
    expect(
      reply.contextInfo?.quotedMessage?.conversation ?? reply.contextInfo?.quotedMessage?.extendedTextMessage?.text,
    ).toBe('question?')

    const unknown = await post(api.url, `/contacts/${DAVE}/messages`, {
      text: 'replying to nothing known',
      quoteId: '3EB0UNKNOWN',
    })
    await upserted(unknown.json.messageId)
    expect(
      upserts.find((m) => m.key.id === unknown.json.messageId)!.message!.extendedTextMessage!.contextInfo,
    ).toMatchObject({ stanzaId: '3EB0UNKNOWN', quotedMessage: { conversation: '' } })
  })

  it('shares a location', async () => {
    const { json } = await post(api.url, `/contacts/${DAVE}/messages`, {
      location: { latitude: -23.55, longitude: -46.63, name: 'Sé' },
    })
    await upserted(json.messageId)
    expect(stanzas.get(json.messageId)?.attrs.type).toBe('media')
    expect(upserts.find((m) => m.key.id === json.messageId)!.message!.locationMessage).toMatchObject({
      degreesLatitude: -23.55,
      degreesLongitude: -46.63,
      name: 'Sé',
    })
    expect((await post(api.url, `/contacts/${DAVE}/messages`, { location: { latitude: 'north' } })).json.error).toBe(
      'invalid_request',
    )
  })

  it('edits its own message: Baileys emits messages.update with the edited content', async () => {
    const original = (await post(api.url, `/contacts/${DAVE}/messages`, { text: 'see you at 5' })).json.messageId
    await upserted(original)
    const edit = await post(api.url, `/contacts/${DAVE}/edits`, { messageId: original, text: 'see you at 6' })
    expect(edit.status).toBe(200)
    expect(edit.json.messageId).not.toBe(original)
    await expect.poll(() => stanzas.get(edit.json.messageId)?.attrs.edit).toBe('1')
    await expect
      .poll(
        () =>
          updates.find((u) => u.key.id === original && u.update.message?.editedMessage)?.update.message?.editedMessage
            ?.message?.conversation,
        { timeout: 5000 },
      )
      .toBe('see you at 6')
    expect(updates.find((u) => u.key.id === original && u.update.message?.editedMessage)?.key.fromMe).toBe(false)
  })

  it('revokes its own message: Baileys emits messages.update with the REVOKE stub', async () => {
    const original = (await post(api.url, `/contacts/${DAVE}/messages`, { text: 'oops, wrong chat' })).json.messageId
    await upserted(original)
    const revoke = await post(api.url, `/contacts/${DAVE}/revokes`, { messageId: original })
    expect(revoke.status).toBe(200)
    await expect.poll(() => stanzas.get(revoke.json.messageId)?.attrs.edit).toBe('7')
    await expect
      .poll(() => updates.find((u) => u.key.id === original && u.update.messageStubType === WAMessageStubType.REVOKE), {
        timeout: 5000,
      })
      .toBeTruthy()
    expect(
      updates.find((u) => u.key.id === original && u.update.messageStubType === WAMessageStubType.REVOKE)?.update
        .message,
    ).toBeNull()
  })

  it('refuses to edit or revoke a message the contact did not send', async () => {
    const sent = await sock.sendMessage(`${DAVE}@s.whatsapp.net`, { text: 'mine, not yours' })
    await sim.contact(DAVE).waitForMessage((m) => m.id === sent?.key.id)
    expect(await post(api.url, `/contacts/${DAVE}/edits`, { messageId: sent!.key.id, text: 'hijack' })).toMatchObject({
      status: 404,
      json: { error: 'unknown_message' },
    })
    expect(await post(api.url, `/contacts/${DAVE}/revokes`, { messageId: '3EB0NEVERSENT' })).toMatchObject({
      status: 404,
      json: { error: 'unknown_message' },
    })
    expect(sim.violations()).toEqual([])
  })
})
