import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../../../wa-sim/control-api'
import { WhatsAppSimulator } from '../../../wa-sim/simulator'
import { pollUntil } from '../../../support/poll'
import { repoRoot, startGatewayProcess, type Spawned } from '../../../support/process'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'

const PACED = '15550045001'
const HUNG = '15550045002'
const CONTACT = '15551245001'
const STRANGER = '15551245002'
/** What systemd allows the unit to stop in before it kills it (deploy/wa-gateway.service). */
const TIMEOUT_STOP_MS =
  Number(
    /^TimeoutStopSec=(\d+)$/m.exec(readFileSync(join(repoRoot, 'deploy/wa-gateway.service'), 'utf8'))?.[1] ?? 'NaN',
  ) * 1000

const textOf = (m: {
  message: { conversation?: string | null; extendedTextMessage?: { text?: string | null } | null }
}) => m.message.conversation ?? m.message.extendedTextMessage?.text ?? undefined

/**
 * SIGTERM to the real gateway process while paced sends wait their turn and a hand-over hangs on
 * WhatsApp: the waiting sends are answered 409 at once (never handed over while the server
 * drains), the hung one is given up within seconds, and the process exits well within the
 * deploy unit's TimeoutStopSec, leaving no record of what was not sent.
 */
describe('paced sends across a SIGTERM', () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let sim: WhatsAppSimulator
  let control: ControlApi
  let gateway: Spawned
  let base = ''
  let key = ''

  const api = async (path: string, init: RequestInit & { idempotencyKey?: string } = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey
    const response = await fetch(`${base}${path}`, { ...init, headers })
    return { status: response.status, body: (await response.json()) as any }
  }
  const connect = async (sessionName: string, phone: string) => {
    const connected = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({ sessionName, webhookUrl: 'https://hooks.invalid/stop' }),
    })
    expect(connected.status, JSON.stringify(connected.body)).toBe(200)
    sim.scan(connected.body.qrCode, phone)
    const sessionId = connected.body.sessionId as string
    await pollUntil(
      async () => (await api('/v1/session/all')).body.sessions.find((s: any) => s.sessionId === sessionId)?.status,
      (status) => status === 'connected',
      { timeoutMs: 30_000, what: `${sessionName} to connect` },
    )
    return sessionId
  }
  const sendText = (sessionId: string, phone: string, message: string, idempotencyKey: string) =>
    api('/v1/message/text', { method: 'POST', body: JSON.stringify({ sessionId, phone, message }), idempotencyKey })

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
    sim.addContact(CONTACT)
    sim.addContact(STRANGER)
    const started = await startGatewayProcess(databasePath, control.url)
    gateway = started.process
    base = started.url
    key = started.firstKey ?? ''
  }, 60_000)
  afterAll(async () => {
    await gateway?.stop()
    await control.stop()
    await sim.stop()
    dir.cleanup()
  })

  it('answers queued sends 409 at once, gives up a hung hand-over, and exits well within TimeoutStopSec', async () => {
    expect(TIMEOUT_STOP_MS).toBe(20_000)
    const paced = await connect('paced', PACED)
    const hung = await connect('hung', HUNG)
    const pacing = await api(`/v1/session/update/${paced}`, {
      method: 'PUT',
      body: JSON.stringify({ sendPacing: { minIntervalMs: 3_000 } }),
    })
    expect(pacing.status).toBe(200)
    expect((await sendText(paced, CONTACT, 'stop 0', 'stop-0')).status).toBe(200)
    // Four more wait their turns (3, 6, 9 and 12 s after the first hand-over).
    const queued = [1, 2, 3, 4].map((i) => sendText(paced, CONTACT, `stop ${i}`, `stop-${i}`))
    // WhatsApp stops answering the other account: its first message to a new contact hangs on a device query.
    sim.account(HUNG).fault('unresponsive')
    const inFlight = sendText(hung, STRANGER, 'hung', 'hung-0')
    await pollUntil(
      () => queryFile(databasePath, "SELECT 1 FROM messages WHERE status = 'pending' AND payload IS NULL").length,
      (n) => n === 1,
      { what: 'the hung send to be recorded' },
    )

    const signalled = Date.now()
    gateway.child.kill('SIGTERM')
    const answers = await Promise.all(queued)
    const answeredWithin = Date.now() - signalled
    const exitCode = await gateway.stop()
    const stoppedWithin = Date.now() - signalled

    expect(exitCode).toBe(0)
    expect(stoppedWithin).toBeLessThan(TIMEOUT_STOP_MS / 2)
    expect(answers.map((a) => [a.status, a.body.error])).toEqual(
      Array.from({ length: 4 }, () => [409, 'session_not_connected']),
    )
    expect(answers[0]!.body.message).toMatch(/stopping/)
    // Answered as the stop began, not when the turns came or the server finished draining.
    expect(answeredWithin).toBeLessThan(2_000)
    const given = await inFlight
    expect([given.status, given.body.error]).toEqual([409, 'session_not_connected'])

    // Only what was handed over before the signal reached the contact; nothing else is recorded.
    sim.account(HUNG).clearFaults()
    await sleep(300)
    expect(sim.contact(CONTACT).inbox().map(textOf)).toEqual(['stop 0'])
    expect(sim.contact(STRANGER).inbox()).toEqual([])
    expect(
      queryFile<{ content: string; status: string }>(databasePath, 'SELECT content, status FROM messages'),
    ).toEqual([expect.objectContaining({ content: expect.stringContaining('"stop 0"') })])
    expect(
      queryFile<{ key: string }>(databasePath, 'SELECT key FROM idempotency_keys ORDER BY key').map((row) => row.key),
    ).toEqual(['stop-0'])
    expect(gateway.output()).toMatch(/"msg":"stopped"/)
  }, 90_000)
})
