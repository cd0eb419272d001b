import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startChatwootStandIn, type ChatwootStandIn } from '../../support/chatwoot/stand-in'
import { startCrashRig, type CrashRig } from '../../support/crash-rig'
import { pollUntil } from '../../support/poll'

const ACCOUNT = '15550036001'
const CONTACT = '15551236001'
const BACKLOG = 12
const KILLS = 3

/**
 * The Chatwoot stream across SIGKILLs: a backlog of a contact's messages is mirrored while the
 * gateway process is killed three times, each time while Chatwoot holds its answer (it has made
 * the message, the gateway has not heard so). The processes after it find what the dead ones
 * made: every message once, one contact, one conversation.
 */
describe('Chatwoot across a SIGKILL', () => {
  let rig: CrashRig
  let cw: ChatwootStandIn
  beforeAll(async () => {
    rig = await startCrashRig([CONTACT])
    cw = await startChatwootStandIn()
  })
  afterAll(async () => {
    await rig?.close()
    await cw?.close()
  })

  it('creates nothing twice in Chatwoot, whenever the process dies', async () => {
    let api = await rig.start()
    const connect = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({ sessionName: 'crash-cw', webhookUrl: 'https://hooks.invalid/wa' }),
    })
    const { sessionId, qrCode } = (await connect.json()) as Record<string, string>
    const enabled = await api(`/v1/session/${sessionId}/chatwoot`, {
      method: 'PUT',
      body: JSON.stringify({ url: cw.url, accountId: cw.accountId, apiToken: cw.token }),
    })
    expect(enabled.status, await enabled.clone().text()).toBe(200)
    cw.down = true // the backlog waits in the outbox
    await rig.backlog(api, {
      sessionId: sessionId!,
      qrCode: qrCode!,
      account: ACCOUNT,
      contact: CONTACT,
      count: BACKLOG,
    })

    const mirrored = () => cw.messages.filter((m) => m.content?.startsWith('backlog '))
    cw.answerDelayMs = 250
    cw.down = false
    for (let kill = 1; kill <= KILLS; kill++) {
      // Killed while Chatwoot holds the answer to the request that made the newest message.
      await pollUntil(mirrored, (made) => made.length >= kill * 3, { timeoutMs: 30_000, what: `${kill * 3} messages` })
      await rig.kill()
      api = await rig.start()
    }
    cw.answerDelayMs = 0
    const all = await pollUntil(mirrored, (made) => made.length >= BACKLOG, { timeoutMs: 30_000, what: 'the backlog' })
    await new Promise((resolve) => setTimeout(resolve, 500)) // a duplicate would come now
    expect(mirrored().map((m) => m.content)).toEqual(Array.from({ length: BACKLOG }, (_, i) => `backlog ${i}`))
    expect(all.every((m) => m.conversationId === all[0]!.conversationId)).toBe(true)
    expect(cw.contacts.filter((c) => c.phoneNumber === `+${CONTACT}`)).toHaveLength(1)
    expect(cw.conversations).toHaveLength(1)
    expect(cw.violations).toEqual([])
  })
})
