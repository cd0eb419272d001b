import { USyncQuery, USyncUser } from '@whiskeysockets/baileys'
import type { WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554300001'
// Brazil's ninth digit: a mobile asked with it may answer without it, and the other way round
const WITH_NINE = '5511912345678'
const WITHOUT_NINE = '551112345678'
const OTHER_WITH_NINE = '5521987654321'
const OTHER_WITHOUT_NINE = '552187654321'

/** What the gateway's number check sends (src/engine/whatsapp/messages/number-check.ts): one usync query by phone. */
const ask = async (sock: WASocket, phones: string[]) => {
  const query = new USyncQuery().withContactProtocol().withLIDProtocol()
  for (const phone of phones) query.withUser(new USyncUser().withPhone(`+${phone}`))
  const result = await sock.executeUSyncQuery(query)
  return (result?.list ?? []) as { id: string; contact?: boolean; lid?: string }[]
}

describe('usync answers a number in another form (Brazil ninth digit)', () => {
  let sim: WhatsAppSimulator
  let api: ControlApi
  let sock: WASocket
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    api = await ControlApi.start(sim)
    sock = (await pairByQr(sim, ACCOUNT)).sock
  })
  afterAll(async () => {
    closeSocket(sock)
    await api.stop()
    await sim.stop()
  })

  it('answers +55 11 9xxxx with the jid without the nine, and the reverse, as configured', async () => {
    const response = await fetch(`${api.url}/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: WITH_NINE, answerAs: WITHOUT_NINE }),
    })
    const created = (await response.json()) as { phone: string; lid: string }
    expect(created.phone).toBe(WITHOUT_NINE)
    const reverse = sim.addContact(OTHER_WITHOUT_NINE, { answerAs: OTHER_WITH_NINE })
    expect(reverse.phone).toBe(OTHER_WITH_NINE)

    const rows = await ask(sock, [WITH_NINE, OTHER_WITHOUT_NINE])
    expect(rows).toHaveLength(2)
    expect(rows).toContainEqual(
      expect.objectContaining({ id: `${WITHOUT_NINE}@s.whatsapp.net`, contact: true, lid: `${created.lid}@lid` }),
    )
    expect(rows).toContainEqual(
      expect.objectContaining({ id: `${OTHER_WITH_NINE}@s.whatsapp.net`, contact: true, lid: `${reverse.lid}@lid` }),
    )
    // Asked in its own form, the number answers as itself
    expect((await ask(sock, [WITHOUT_NINE]))[0]).toMatchObject({ id: `${WITHOUT_NINE}@s.whatsapp.net`, contact: true })
  })

  it('delivers to the answered jid; the contact is reachable by either form', async () => {
    const sent = await sock.sendMessage(`${WITHOUT_NINE}@s.whatsapp.net`, { text: 'olá' })
    const received = await sim.contact(WITH_NINE).waitForMessage((m) => m.id === sent?.key.id)
    expect(received.chat).toBe(`${WITHOUT_NINE}@s.whatsapp.net`)
    expect(sim.contact(WITHOUT_NINE).phone).toBe(WITHOUT_NINE)
    expect(() => sim.addContact(WITHOUT_NINE, { answerAs: OTHER_WITH_NINE })).toThrow(/already a number of its own/)
    expect(sim.violations()).toEqual([])
  })
})
