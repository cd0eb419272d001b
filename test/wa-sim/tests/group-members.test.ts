import type { BinaryNode, WAMessage, WAMessageUpdate, WASocket } from '@whiskeysockets/baileys'
import { WAMessageStubType } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554400001'
const ERIN = '15554400101'
const FRANK = '15554400102'

const post = async (base: string, path: string, body: unknown): Promise<{ status: number; json: any }> => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: await response.json() }
}

describe('groups with the account among the participants (real Baileys)', () => {
  let sim: WhatsAppSimulator
  let api: ControlApi
  let sock: WASocket
  let groupJid: string
  const upserts: WAMessage[] = []
  const updates: WAMessageUpdate[] = []
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    api = await ControlApi.start(sim)
    sock = (await pairByQr(sim, ACCOUNT)).sock
    sock.ev.on('messages.upsert', ({ messages }) => upserts.push(...messages))
    sock.ev.on('messages.update', (batch) => updates.push(...batch))
  })
  afterAll(async () => {
    closeSocket(sock)
    await api.stop()
    await sim.stop()
  })

  it('creates a group whose participants include the account; metadata lists it as admin', async () => {
    const created = await post(api.url, '/groups', {
      subject: 'With me',
      participants: [ACCOUNT, ERIN, FRANK],
      owner: ERIN,
    })
    expect(created.status).toBe(200)
    groupJid = created.json.jid
    expect(created.json.participants).toEqual([ACCOUNT, ERIN, FRANK])
    expect(() => sim.contact(ACCOUNT)).toThrow(/no contact/)
    const metadata = await sock.groupMetadata(groupJid)
    const byPhone = new Map(metadata.participants.map((p) => [p.phoneNumber, p.admin]))
    expect(byPhone.get(`${ACCOUNT}@s.whatsapp.net`)).toBe('admin')
    expect(byPhone.get(`${ERIN}@s.whatsapp.net`)).toBe('superadmin')
    expect(byPhone.has(`${FRANK}@s.whatsapp.net`)).toBe(true)
    expect(metadata.participants).toHaveLength(3)
    expect(Object.keys(await sock.groupFetchAllParticipating())).toContain(groupJid)
  })

  it('delivers a group message from the account to the contact participants', async () => {
    const sent = await sock.sendMessage(groupJid, { text: 'hello from the account' })
    for (const phone of [ERIN, FRANK]) {
      const received = await sim.contact(phone).waitForMessage((m) => m.id === sent?.key.id)
      expect(received).toMatchObject({ chat: groupJid, from: ACCOUNT })
    }
    expect(sim.violations()).toEqual([])
  })

  it('delivers messages a contact sends into the group (its sender key, then skmsg), then its edit and revoke', async () => {
    const stanzas = new Map<string, BinaryNode>()
    sock.ws.on('CB:message', (node: BinaryNode) => stanzas.set(node.attrs.id ?? '', node))
    const first = (await post(api.url, `/contacts/${ERIN}/messages`, { group: groupJid, text: 'hi all' })).json
      .messageId
    const second = await sim.contact(ERIN).send({ text: 'again, same sender key' }, { group: groupJid })
    for (const [id, text] of [
      [first, 'hi all'],
      [second, 'again, same sender key'],
    ]) {
      await expect.poll(() => upserts.find((m) => m.key.id === id)?.message?.conversation, { timeout: 5000 }).toBe(text)
      const key = upserts.find((m) => m.key.id === id)!.key
      expect(key).toMatchObject({ remoteJid: groupJid, fromMe: false, participant: `${sim.contact(ERIN).lid}@lid` })
    }
    // The sender key travels once per device; later messages are skmsg only
    expect(stanzas.get(first)?.content).toHaveLength(2)
    expect(stanzas.get(second)?.content).toHaveLength(1)

    await post(api.url, `/contacts/${ERIN}/edits`, { messageId: first, text: 'hi everyone' })
    await expect
      .poll(
        () =>
          updates.find((u) => u.key.id === first && u.update.message?.editedMessage)?.update.message?.editedMessage
            ?.message?.conversation,
        { timeout: 5000 },
      )
      .toBe('hi everyone')
    await post(api.url, `/contacts/${ERIN}/revokes`, { messageId: second })
    await expect
      .poll(
        () =>
          updates.find((u) => u.key.id === second && u.update.messageStubType === WAMessageStubType.REVOKE)?.key
            .remoteJid,
        { timeout: 5000 },
      )
      .toBe(groupJid)

    const outsider = sim.addContact('15554400199').phone
    expect(
      await post(api.url, `/contacts/${outsider}/messages`, { group: groupJid, text: 'let me in', to: ACCOUNT }),
    ).toMatchObject({ status: 409, json: { error: 'not_a_participant' } })
    expect(sim.violations()).toEqual([])
  })
})
