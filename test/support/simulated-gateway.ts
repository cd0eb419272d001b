import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator, type SimulatorStartOptions } from '../wa-sim/simulator'
import { trustSimulatorCaOnBun } from './bun-fetch-ca'
import { jsonBody, startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway'
import { type ListedSession, pairByQr as pairOnce, waitForSessionStatus } from './pairing'
import { pollUntil } from './poll'

export interface SimulatedGateway extends TestGateway {
  sim: WhatsAppSimulator
  control: ControlApi
  /** POST /v1/session/connect; answers the parsed body and status. */
  connect(body: Record<string, unknown>, key?: string): Promise<{ status: number; body: any }>
  /** Connects by QR, lets the simulated phone scan it as `phone`, waits for `connected`. */
  pairByQr(sessionName: string, phone: string): Promise<string>
  /** Polls GET /v1/session/all until the session has the status. */
  waitForStatus(sessionId: string, status: string, timeoutMs?: number): Promise<ListedSession>
  listSessions(key?: string): Promise<ListedSession[]>
  /** Stops the gateway only (the simulator keeps running), e.g. to restart on the same file. */
  stopGateway(): Promise<void>
  /** POST a JSON body to the API with the workspace's key (or `key`); answers status, headers and parsed body. */
  post(
    path: string,
    body: unknown,
    options?: { key?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>
  get(path: string, key?: string): Promise<{ status: number; body: any }>
  /** Polls GET /v1/message/{id} until the record matches (e.g. a status driven by receipts). */
  waitForRecord(sessionId: string, messageId: string, match: (record: any) => boolean, timeoutMs?: number): Promise<any>
}

export const WEBHOOK = 'https://hooks.invalid/wa'

/**
 * A simulator and a gateway wired to it through WA_SIMULATOR's control URL, on a temp
 * database: the real Baileys client end to end, with no phone and no network.
 */
export async function startSimulatedGateway(
  options: TestGatewayOptions & {
    simulator?: SimulatorStartOptions
    /** Reuse a running simulator (restart tests). */
    reuse?: { sim: WhatsAppSimulator; control: ControlApi }
  } = {},
): Promise<SimulatedGateway> {
  const sim = options.reuse?.sim ?? (await WhatsAppSimulator.start(options.simulator))
  const control = options.reuse?.control ?? (await ControlApi.start(sim))
  trustSimulatorCaOnBun(sim.config.mediaCaPem)
  const { simulator: _, reuse: __, ...gatewayOptions } = options
  const t = await startTestGateway({
    ...gatewayOptions,
    config: { simulatorUrl: control.url, reconnect: { baseMs: 50, maxMs: 500 }, ...options.config },
  })

  const connect = async (body: Record<string, unknown>, key = t.key) => {
    const response = await t.request('/v1/session/connect', {
      ...jsonBody({ webhookUrl: WEBHOOK, ...body }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const listSessions = async (key = t.key) => {
    const response = await t.request('/v1/session/all', { headers: { authorization: `Bearer ${key}` } })
    return ((await response.json()) as { sessions: ListedSession[] }).sessions
  }
  const post: SimulatedGateway['post'] = async (path, body, options = {}) => {
    const response = await t.request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${options.key ?? t.key}`,
        ...options.headers,
      },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any, headers: response.headers }
  }
  const get: SimulatedGateway['get'] = async (path, key = t.key) => {
    const response = await t.request(path, { headers: { authorization: `Bearer ${key}` } })
    return { status: response.status, body: (await response.json()) as any }
  }

  const waitForStatus = (sessionId: string, status: string, timeoutMs = 10_000) =>
    waitForSessionStatus({ post, get }, sessionId, status, timeoutMs)
  const pairByQr = (sessionName: string, phone: string) =>
    pairOnce({ post, get }, (qr, as) => sim.scan(qr, as), {
      sessionName,
      phone,
      webhookUrl: WEBHOOK,
      timeoutMs: 10_000,
    })

  const waitForRecord: SimulatedGateway['waitForRecord'] = (sessionId, messageId, match, timeoutMs = 10_000) =>
    pollUntil(
      async () => (await get(`/v1/message/${encodeURIComponent(messageId)}?sessionId=${sessionId}`)).body,
      match,
      {
        timeoutMs,
        what: `message ${messageId} to match`,
      },
    )

  return {
    ...t,
    post,
    get,
    waitForRecord,
    sim,
    control,
    connect,
    listSessions,
    waitForStatus,
    pairByQr,
    stopGateway: () => t.close(),
    async close() {
      await t.close()
      if (!options.reuse) {
        await control.stop()
        await sim.stop()
      }
    },
  }
}
