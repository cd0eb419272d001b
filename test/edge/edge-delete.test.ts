/**
 * #33's session routes on the Cloudflare Workers deployment under local `wrangler dev`: a session
 * connected without a webhook, its name used where its id goes (the Worker answers the id), and
 * DELETE /v1/session/{id} (refused while live; once disconnected the session object's rows go and
 * the workspace object's index lets the name be taken again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { pollUntil } from '../support/poll'
import { tempDir } from '../support/temp-dir'
import { edgeJwt, freePort, startWranglerDev, type WranglerDev } from './wrangler-dev'

const JWT_SECRET = 'edge-test-secret-0123456789abcdef0123'
const CONTACT = '15551230002'
const PHONE = '15550170002'

let sim: WhatsAppSimulator
let control: ControlApi
let dev: WranglerDev
let port: number
let token: string
const state = tempDir('edge-test-')
let env: Record<string, string>

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${dev.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }
}

/** pollUntil with wrangler's output in the failure: what workerd said is where the cause is. */
const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  try {
    return (await pollUntil(probe, (value) => value !== undefined, { timeoutMs, intervalMs: 100, what })) as T
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${dev.output().slice(-4000)}`)
  }
}

const sessionStatus = async (sessionId: string) =>
  (await api('GET', '/v1/session/all')).body.sessions?.find((s: any) => s.sessionId === sessionId)
const waitForStatus = (sessionId: string, status: string, timeoutMs?: number) =>
  until(
    `session ${sessionId} ${status}`,
    async () => {
      const session = await sessionStatus(sessionId)
      return session?.status === status ? session : undefined
    },
    timeoutMs,
  )

beforeAll(async () => {
  sim = await WhatsAppSimulator.start({ contacts: [CONTACT], autoReceipts: true })
  control = await ControlApi.start(sim)
  port = await freePort()
  env = {
    WA_SIMULATOR: control.url,
    JWT_SECRET,
    WEBHOOK_ALLOW_HTTP: 'true',
    ALLOW_PRIVATE_ADDRESSES: 'true',
    EDGE_TEST_HOOKS: 'true',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  }
  dev = await startWranglerDev({ port, persistDir: state.path, env })
  token = await edgeJwt(JWT_SECRET, 'edge-acme')
}, 180_000)

afterAll(async () => {
  await dev?.stop()
  await control?.stop()
  await sim?.stop()
  state.cleanup()
}, 60_000)

describe('edge: a finished session deleted, and a name used as its id', () => {
  it('connects without a webhook, answers the id for its name, refuses DELETE while live, deletes once disconnected', async () => {
    const connect = await api('POST', '/v1/session/connect', { sessionName: 'edge desk' })
    expect(connect.status, `${JSON.stringify(connect.body)}\n${dev.output().slice(-3000)}`).toBe(200)
    expect(connect.body.webhookUrl).toBeNull()
    const sessionId = connect.body.sessionId
    sim.scan(connect.body.qrCode, PHONE)
    await waitForStatus(sessionId, 'connected')

    const byName = await api('GET', `/v1/session/${encodeURIComponent('edge desk')}/qr`)
    expect(byName.status).toBe(404)
    expect(byName.body.message).toContain(sessionId)

    const live = await api('DELETE', `/v1/session/${sessionId}`)
    expect(live.status, JSON.stringify(live.body)).toBe(409)

    const off = await api('DELETE', `/v1/session/disconnect/${sessionId}`)
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    await waitForStatus(sessionId, 'disconnected')

    const deleted = await api('DELETE', `/v1/session/${sessionId}`)
    expect(deleted.status, `${JSON.stringify(deleted.body)}\n${dev.output().slice(-3000)}`).toBe(200)
    expect(deleted.body.sessionId).toBe(sessionId)
    expect((await api('GET', '/v1/session/all')).body.sessions).toEqual([])
    expect((await api('DELETE', `/v1/session/${sessionId}`)).status).toBe(404)
    // The name is free again: a new session may take it.
    const again = await api('POST', '/v1/session/connect', { sessionName: 'edge desk' })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body.sessionId).not.toBe(sessionId)
  }, 120_000)
})
