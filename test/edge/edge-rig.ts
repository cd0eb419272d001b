import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { pollUntil } from '../support/poll'
import { tempDir } from '../support/temp-dir'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'
import { edgeJwt, freePort, startWranglerDev, type WranglerDev } from './wrangler-dev'

const JWT_SECRET = 'edge-test-secret-0123456789abcdef0123'

export interface EdgeRig {
  sim: WhatsAppSimulator
  dev: WranglerDev
  receiver: WebhookReceiver
  /** The workspace's JWT (`edge-acme`). */
  token: string
  api(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }>
  /** pollUntil with wrangler's output in the failure: what workerd said is where the cause is. */
  until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>
  waitForStatus(sessionId: string, status: string, timeoutMs?: number): Promise<any>
  /** Connects a session whose webhook is the receiver's `edge` path, links `phone` by QR, waits until connected. */
  linkSession(sessionName: string, phone: string): Promise<{ sessionId: string; webhookSecret: string }>
  close(): Promise<void>
}

/**
 * The simulator (with its control API, which the Worker reaches), a webhook receiver and
 * `wrangler dev` with the loopback switches, and a workspace's JWT: what an edge test starts from.
 */
export async function startEdgeRig(contacts: string[]): Promise<EdgeRig> {
  const sim = await WhatsAppSimulator.start({ contacts, autoReceipts: true })
  const control = await ControlApi.start(sim)
  const receiver = await startWebhookReceiver()
  const state = tempDir('edge-test-')
  const port = await freePort()
  const dev = await startWranglerDev({
    port,
    persistDir: state.path,
    env: {
      WA_SIMULATOR: control.url,
      JWT_SECRET,
      WEBHOOK_ALLOW_HTTP: 'true',
      ALLOW_PRIVATE_ADDRESSES: 'true',
      EDGE_TEST_HOOKS: 'true',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  })
  const token = await edgeJwt(JWT_SECRET, 'edge-acme')

  const api: EdgeRig['api'] = async (method, path, body) => {
    const response = await fetch(`${dev.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    return { status: response.status, headers: response.headers, body: (await response.json()) as any }
  }
  const until: EdgeRig['until'] = async (what, probe, timeoutMs = 30_000) => {
    try {
      return (await pollUntil(probe, (value) => value !== undefined, { timeoutMs, intervalMs: 100, what })) as never
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${dev.output().slice(-4000)}`)
    }
  }
  const waitForStatus: EdgeRig['waitForStatus'] = (sessionId, status, timeoutMs) =>
    until(
      `session ${sessionId} ${status}`,
      async () => {
        const session = (await api('GET', '/v1/session/all')).body.sessions?.find((s: any) => s.sessionId === sessionId)
        return session?.status === status ? session : undefined
      },
      timeoutMs,
    )
  const linkSession: EdgeRig['linkSession'] = async (sessionName, phone) => {
    const connect = await api('POST', '/v1/session/connect', { sessionName, webhookUrl: receiver.url('edge') })
    if (connect.status !== 200) throw new Error(`${JSON.stringify(connect.body)}\n${dev.output().slice(-3000)}`)
    sim.scan(connect.body.qrCode, phone)
    await waitForStatus(connect.body.sessionId, 'connected')
    return { sessionId: connect.body.sessionId, webhookSecret: connect.body.webhookSecret }
  }
  return {
    sim,
    dev,
    receiver,
    token,
    api,
    until,
    waitForStatus,
    linkSession,
    async close() {
      await dev.stop()
      await receiver.close()
      await control.stop()
      await sim.stop()
      state.cleanup()
    },
  }
}
