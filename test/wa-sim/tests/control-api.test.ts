import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, memoryAuth, openSocket } from './harness'

const call = async (
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, json: await response.json() }
}

describe('control API', () => {
  let sim: WhatsAppSimulator
  let api: ControlApi
  let sock: WASocket | undefined
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start({ autoReceipts: true })
    api = await ControlApi.start(sim)
  })
  afterAll(async () => {
    closeSocket(sock)
    await api.stop()
    await sim.stop()
  })

  it('pairs, messages, reports inbox, stats and faults over HTTP', async () => {
    const config = await call(api.url, 'GET', '/config')
    expect(config.json).toMatchObject({ wsUrl: sim.config.wsUrl, rootPublicKey: sim.config.rootPublicKey })
    expect(config.json.mediaCaPem).toContain('BEGIN CERTIFICATE')
    expect((await call(api.url, 'POST', '/contacts', { phone: '15556000101' })).json.phone).toBe('15556000101')

    const auth = memoryAuth()
    let scanned: Promise<{ status: number; json: any }> | undefined
    const first = await openSocket(sim, auth, {}, (qr) => {
      scanned ??= call(api.url, 'POST', '/scan', { qr })
    })
    const linked = (await scanned!).json
    expect(linked.phone).toMatch(/^\d+$/)
    expect(first.code).toBe(515)
    const second = await openSocket(sim, auth)
    sock = second.sock

    const statuses: number[] = []
    sock.ev.on('messages.update', (updates) => {
      for (const u of updates) if (typeof u.update.status === 'number') statuses.push(u.update.status)
    })
    const sent = await sock.sendMessage('15556000101@s.whatsapp.net', { text: 'via control api' })
    await sim.contact('15556000101').waitForMessage((m) => m.id === sent?.key.id)
    const inbox = await call(api.url, 'GET', '/contacts/15556000101/inbox')
    const stored = inbox.json[0].message
    expect(stored.conversation ?? stored.extendedTextMessage?.text).toBe('via control api')
    // autoReceipts: delivered then read arrive without the test asking
    await expect.poll(() => statuses.includes(4), { timeout: 3000 }).toBe(true)

    const upsert = new Promise<string>((resolve) =>
      sock!.ev.on(
        'messages.upsert',
        ({ messages }) => messages[0]?.message?.conversation && resolve(messages[0].message.conversation),
      ),
    )
    const posted = await call(api.url, 'POST', '/contacts/15556000101/messages', {
      to: linked.phone,
      text: 'from the API',
    })
    expect(posted.json.messageId).toBeTruthy()
    expect(await upsert).toBe('from the API')

    const stats = await call(api.url, 'GET', '/stats')
    expect(stats.json[linked.phone]).toMatchObject({ connections: 1, logins: 1 })
    expect(stats.json[linked.phone].messagesReceived).toBeGreaterThanOrEqual(1)
    expect(stats.json[linked.phone].iqs).toBeGreaterThan(0)

    const closed = new Promise<number | undefined>((resolve) =>
      sock!.ev.on(
        'connection.update',
        (u) => u.connection === 'close' && resolve((u.lastDisconnect?.error as any)?.output?.statusCode),
      ),
    )
    expect((await call(api.url, 'POST', `/accounts/${linked.phone}/faults`, { kind: 'conflict' })).status).toBe(200)
    expect(await closed).toBe(440)
  })

  it('answers bad requests with JSON errors', async () => {
    expect(await call(api.url, 'POST', '/scan', {})).toMatchObject({ status: 400, json: { error: 'invalid_request' } })
    expect(await call(api.url, 'POST', '/scan', { qr: 'nope,a,b,c' })).toMatchObject({
      status: 400,
      json: { error: 'no_pending_pairing' },
    })
    expect(await call(api.url, 'GET', '/contacts/1999/inbox')).toMatchObject({
      status: 404,
      json: { error: 'unknown_contact' },
    })
    expect(await call(api.url, 'POST', '/accounts/1999/faults', { kind: 'drop' })).toMatchObject({
      status: 404,
      json: { error: 'unknown_account' },
    })
    expect(await call(api.url, 'GET', '/nope')).toMatchObject({ status: 404, json: { error: 'not_found' } })
  })
})

describe('npm run sim (cli.ts)', () => {
  let child: ChildProcess
  afterAll(() => {
    child?.kill('SIGTERM')
  })

  it('prints one JSON line with the control URL and serves /config', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'test/wa-sim/cli.ts', '--contacts', '15557000001'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve))
    const { controlUrl, wsUrl } = JSON.parse(line) as { controlUrl: string; wsUrl: string }
    expect(wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws\/chat$/)
    const config = await call(controlUrl, 'GET', '/config')
    expect(config.json.wsUrl).toBe(wsUrl)
    expect((await call(controlUrl, 'GET', '/contacts/15557000001/inbox')).json).toEqual([])
  })
})
