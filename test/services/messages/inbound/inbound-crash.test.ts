import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ControlApi } from '../../../wa-sim/control-api'
import { WhatsAppSimulator } from '../../../wa-sim/simulator'
import { startGatewayProcess, type Spawned } from '../../../support/process'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'
import { pollUntil } from '../../../support/poll'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550042001'
const CONTACT = '15551262001'

/**
 * Nothing a contact sends is lost when the gateway dies: the simulator keeps every message the
 * device has not acknowledged and relays it again at the next login (WhatsApp's offline queue),
 * and the gateway acknowledges a message only after its record and event are committed.
 */
describe('inbound messages across stops and SIGKILLs', () => {
  const dir = tempDir()
  const databasePath = `${dir.path}/gateway.db`
  let sim: WhatsAppSimulator
  let control: ControlApi
  let gateway: Spawned | undefined
  let base = ''
  let key = ''

  const start = async () => {
    const started = await startGatewayProcess(databasePath, control.url, {
      RECONNECT_BASE_MS: '50',
      RECONNECT_MAX_MS: '200',
    })
    gateway = started.process
    base = started.url
    key ||= started.firstKey ?? ''
  }
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const waitConnected = () =>
    pollUntil(
      async () => (await api('/v1/session/all')).body.sessions[0]?.status,
      (status) => status === 'connected',
      {
        timeoutMs: 30_000,
        what: 'the session to connect',
      },
    )
  /** Inbound records and message.received events per message id, straight from the SQLite file. */
  const inbound = () =>
    queryFile<{ id: string }>(databasePath, "SELECT id FROM messages WHERE direction = 'inbound'").map((row) => row.id)
  const receivedEvents = () =>
    queryFile<{ body: string }>(databasePath, "SELECT body FROM webhook_events WHERE type = 'message.received'").map(
      (row) => (JSON.parse(row.body) as { data: { messageId: string } }).data.messageId,
    )
  const untilRecorded = async (ids: string[]) => {
    for (const until = Date.now() + 30_000; Date.now() < until; await sleep(100)) {
      const recorded = new Set(inbound())
      if (ids.every((id) => recorded.has(id))) return
    }
    const recorded = new Set(inbound())
    const missing = ids.filter((id) => !recorded.has(id))
    const lines = gateway!
      .output()
      .split('\n')
      .filter((line) => missing.some((id) => line.includes(id)) || /decrypt|retry|error/i.test(line))
    throw new Error(
      `never recorded: ${missing.join(', ')}; still queued: ${sim.account(ACCOUNT).unacknowledged().join(', ')}\n${lines.slice(-30).join('\n')}`,
    )
  }

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
    sim.addContact(CONTACT)
    await start()
    const connect = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({ sessionName: 'inbox', webhookUrl: 'https://hooks.invalid/inbox' }),
    })
    sim.scan(connect.body.qrCode, ACCOUNT)
    await waitConnected()
  }, 60_000)
  afterAll(async () => {
    await gateway?.stop()
    await control.stop()
    await sim.stop()
    dir.cleanup()
  })

  it('records what was sent while the gateway was stopped, once it is back', async () => {
    await gateway!.stop()
    const sent: string[] = []
    for (let i = 0; i < 3; i++) sent.push(await sim.contact(CONTACT).send({ text: `while away ${i}` }, { to: ACCOUNT }))
    await start()
    await untilRecorded(sent)
    await vi.waitFor(() => expect(sim.account(ACCOUNT).unacknowledged()).toEqual([]))
  }, 60_000)

  it('records every one of 50 messages exactly once, whenever a SIGKILL lands', async () => {
    for (const killAfterMs of [5, 40, 90, 150, 250]) {
      await waitConnected()
      const burst = (async () => {
        const ids: string[] = []
        for (let i = 0; i < 50; i++)
          ids.push(await sim.contact(CONTACT).send({ text: `burst ${killAfterMs} ${i}` }, { to: ACCOUNT }))
        return ids
      })()
      await sleep(killAfterMs + Math.random() * 40)
      gateway!.child.kill('SIGKILL')
      await gateway!.stop()
      const ids = await burst // the rest arrive while the device is offline: queued
      await start()
      await untilRecorded(ids)
    }
    await sleep(500) // let any duplicate that would still come arrive
    const records = inbound()
    expect(records.length).toBe(new Set(records).size)
    const events = receivedEvents()
    expect(events.length).toBe(new Set(events).size) // one message.received per message, never two
    expect(events.length).toBe(records.length)
    expect(sim.violations()).toEqual([])
  }, 120_000)
})
