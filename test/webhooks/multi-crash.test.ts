import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCrashRig, type CrashRig } from '../support/crash-rig'
import { queryFile } from '../support/sqlite-file'

const ACCOUNT = '15550040002'
const CONTACT = '15551260002'
const BACKLOG = 15
const HOOKS = ['primary', 'extra', 'workspace'] as const

/**
 * Every webhook's stream survives a crash: a session's webhookUrl, another webhook of the
 * session and one of the workspace, each with a backlog when the process is killed with SIGKILL;
 * the next process on the same file delivers every event to each, in order.
 */
describe('three webhooks’ deliveries across a SIGKILL', () => {
  let rig: CrashRig
  beforeAll(async () => {
    rig = await startCrashRig([CONTACT])
  })
  afterAll(() => rig.close())

  it('delivers every pending event to each webhook after the restart, in order', async () => {
    const { receiver, databasePath } = rig
    receiver.respond = () => 503 // every endpoint is down: a backlog builds up for each
    const api = await rig.start()
    const add = async (path: string, name: string) => {
      const answer = await api(path, { method: 'POST', body: JSON.stringify({ url: receiver.url(name) }) })
      expect(answer.status).toBe(200)
      return ((await answer.json()) as { secret: string }).secret
    }

    const secrets: Record<string, string> = { workspace: await add('/v1/webhooks', 'workspace') }
    const connect = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({ sessionName: 'crash3', webhookUrl: receiver.url('primary') }),
    })
    expect(connect.status).toBe(200)
    const { sessionId, webhookSecret, qrCode } = (await connect.json()) as Record<string, string>
    secrets.primary = webhookSecret!
    secrets.extra = await add(`/v1/session/${sessionId}/webhooks`, 'extra')
    await rig.backlog(api, {
      sessionId: sessionId!,
      qrCode: qrCode!,
      account: ACCOUNT,
      contact: CONTACT,
      count: BACKLOG,
    })
    const recorded = rig.eventIds()
    // What each webhook has pending: every event for the two there from the start, those since
    // it was added (the messages among them) for the session's second one.
    const pendingFor = (which: string) =>
      queryFile<{ id: string; sequence: number }>(
        databasePath,
        `SELECT e.id, e.sequence FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE d.status = 'pending' AND ${which} ORDER BY e.sequence`,
      )
    const ofWebhooks = (scope: string) =>
      `d.webhook_id IN (SELECT id FROM webhook_subscriptions WHERE session_id ${scope})`
    const expected = {
      primary: pendingFor('d.webhook_id IS NULL'),
      extra: pendingFor(ofWebhooks('IS NOT NULL')),
      workspace: pendingFor(ofWebhooks('IS NULL')),
    }
    expect(expected.primary).toEqual(recorded)
    expect(expected.workspace).toEqual(recorded)
    expect(expected.extra.length).toBeGreaterThanOrEqual(BACKLOG)
    for (const hook of HOOKS) expect(receiver.events(hook, secrets[hook]!)).toEqual([])

    await rig.kill()
    receiver.respond = () => 200
    await rig.start()

    for (const hook of HOOKS) {
      const delivered = await receiver.waitFor(
        hook,
        secrets[hook]!,
        (events) => expected[hook].every((row) => events.some((e) => e.eventId === row.id)),
        { timeoutMs: 30_000 },
      )
      // In order (a repeat may only follow itself: at least once), and nothing recorded before the kill is missing.
      const firsts = delivered.filter((e, i) => i === 0 || e.eventId !== delivered[i - 1]!.eventId)
      expect(
        firsts.map((e) => e.sequence),
        hook,
      ).toEqual(expected[hook].map((row) => row.sequence))
      expect(
        firsts.filter((e) => e.type === 'message.received').map((e) => e.data.content.text),
        hook,
      ).toEqual(Array.from({ length: BACKLOG }, (_, i) => `backlog ${i}`))
    }
  }, 120_000)
})
