import type { InferResponseType } from 'hono/client'
import type { z } from 'zod'
import type { ConnectSessionBody } from '../../src/schemas/session'
import { ControlApi } from '../wa-sim/control-api'
import type { ScanOptions } from '../wa-sim/pairing'
import { WhatsAppSimulator, type SimulatorStartOptions } from '../wa-sim/simulator'
import { answerOf, type GatewayClient } from './client'
import { trustSimulatorCaOnBun } from './bun-fetch-ca'
import { jsonBody, startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway'
import { type ListedSession, waitForSessionStatus } from './pairing'
import { pollUntil } from './poll'

/** What linkSession takes: who scans, and the connect body beside the defaults. */
export interface LinkOptions {
  /** The simulated phone that scans the QR (its account is created if it has none). */
  phone: string
  /** The connect body; sessionName defaults to `linked-<phone>`, webhookUrl to WEBHOOK. */
  connect?: Partial<z.input<typeof ConnectSessionBody>>
  /** Another workspace's key; the test workspace's by default. */
  key?: string
  /** How the phone scans, e.g. as a business account with its name. */
  scan?: ScanOptions
  timeoutMs?: number
}

/** A session linked to a simulated phone and `connected`. */
export interface LinkedSession {
  sessionId: string
  webhookSecret: string
  /** The connect answer, as the client got it. */
  connected: ConnectAnswer
  /** The session as GET /v1/session/all lists it once connected. */
  session: ListedSession
}

type ConnectAnswer = InferResponseType<GatewayClient['v1']['session']['connect']['$post'], 200>

export interface SimulatedGateway extends TestGateway {
  sim: WhatsAppSimulator
  control: ControlApi
  /** POST /v1/session/connect; answers the parsed body and status. */
  connect(body: Record<string, unknown>, key?: string): Promise<{ status: number; body: any }>
  /** Connects by QR, lets the simulated phone scan it as `phone`, waits for `connected`. */
  pairByQr(sessionName: string, phone: string): Promise<string>
  /**
   * The fixture every suite links a session with: connect (typed, through hc<AppType>), the
   * simulated phone scans the QR, wait until the session is `connected` in its workspace.
   */
  linkSession(options: LinkOptions): Promise<LinkedSession>
  /** Polls GET /v1/session/all (as `key`'s workspace) until the session has the status. */
  waitForStatus(sessionId: string, status: string, timeoutMs?: number, key?: string): Promise<ListedSession>
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

  const waitForStatus = (sessionId: string, status: string, timeoutMs = 10_000, key = t.key) =>
    waitForSessionStatus({ post, get: (path) => get(path, key) }, sessionId, status, timeoutMs)
  const linkSession: SimulatedGateway['linkSession'] = async ({ phone, connect, key = t.key, scan, timeoutMs }) => {
    const answer = await answerOf(
      t.apiAs(key).v1.session.connect.$post({
        json: { sessionName: `linked-${phone}`, webhookUrl: WEBHOOK, ...connect },
      }),
    )
    if (answer.status !== 200) throw new Error(`connect answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    const connected = answer.body
    sim.scan(connected.qrCode, phone, scan)
    const session = await waitForStatus(connected.sessionId, 'connected', timeoutMs, key)
    return { sessionId: connected.sessionId, webhookSecret: connected.webhookSecret, connected, session }
  }
  const pairByQr = async (sessionName: string, phone: string) =>
    (await linkSession({ phone, connect: { sessionName } })).sessionId

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
    linkSession,
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

/**
 * Resolves once `phone`'s account has asked WhatsApp nothing (no iq) for 300 ms: after linking the
 * device syncs its app state in a burst; a test that counts iqs to show nothing was asked waits it out.
 */
export const iqsSettled = (sim: WhatsAppSimulator, phone: string) => {
  const iqs = () => sim.stats()[phone]!.iqs
  return pollUntil(
    async () => {
      const before = iqs()
      await new Promise((resolve) => setTimeout(resolve, 300))
      return iqs() === before
    },
    Boolean,
    { what: `${phone}'s iqs to settle` },
  )
}
