import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCrashRig, type CrashRig } from '../support/crash-rig'

const ACCOUNT = '15550040001'
const CONTACT = '15551260001'
const BACKLOG = 25

/**
 * The outbox survives a crash: a gateway process with an undelivered backlog is killed with
 * SIGKILL (no shutdown code runs), and the next process on the same file delivers every event.
 */
describe('webhook events across a SIGKILL', () => {
  let rig: CrashRig
  beforeAll(async () => {
    rig = await startCrashRig([CONTACT])
  })
  afterAll(() => rig.close())

  it('delivers every event recorded before the kill after the restart', async () => {
    const { receiver } = rig
    receiver.respond = () => 503 // the endpoint is down: a backlog builds up
    const api = await rig.start()
    const connect = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({ sessionName: 'crash', webhookUrl: receiver.url('crash') }),
    })
    expect(connect.status).toBe(200)
    const { sessionId, webhookSecret, qrCode } = (await connect.json()) as Record<string, string>
    await rig.backlog(api, {
      sessionId: sessionId!,
      qrCode: qrCode!,
      account: ACCOUNT,
      contact: CONTACT,
      count: BACKLOG,
    })
    const recorded = rig.eventIds()
    expect(recorded.length).toBeGreaterThan(BACKLOG)
    expect(receiver.events('crash', webhookSecret!)).toEqual([])
    expect(receiver.requests.length).toBeGreaterThan(0) // it was trying

    await rig.kill()
    receiver.respond = () => 200
    await rig.start()

    const delivered = await receiver.waitFor(
      'crash',
      webhookSecret!,
      (events) => recorded.every((row) => events.some((e) => e.eventId === row.id)),
      { timeoutMs: 30_000 },
    )
    expect(delivered.filter((e) => e.type === 'message.received').map((e) => e.data.content.text)).toEqual(
      Array.from({ length: BACKLOG }, (_, i) => `backlog ${i}`),
    )
    // In order, and nothing recorded before the kill is missing.
    const sequences = delivered.map((e) => e.sequence)
    expect(sequences).toEqual(recorded.map((row) => row.sequence))
    expect(delivered.every((e) => e.sessionId === sessionId)).toBe(true)
  }, 90_000)
})
