import type { z } from 'zod'
import type { SessionSchema } from '../../src/schemas/session'
import { pollUntil } from './poll'

/** A session as GET /v1/session/all answers it. */
export type ListedSession = z.output<typeof SessionSchema>

/** The two calls pairing needs, whoever makes them (app.request in-process, fetch to another process). */
export interface PairingApi {
  post(path: string, body: unknown): Promise<{ status: number; body: any }>
  get(path: string): Promise<{ status: number; body: any }>
}

/** Polls GET /v1/session/all until the session has `status`; answers it. */
export const waitForSessionStatus = (api: PairingApi, sessionId: string, status: string, timeoutMs: number) =>
  pollUntil(
    async () =>
      ((await api.get('/v1/session/all')).body.sessions as ListedSession[]).find((s) => s.sessionId === sessionId),
    (session) => session?.status === status,
    { timeoutMs, what: `session ${sessionId} to be ${status}` },
  ) as Promise<ListedSession>

/**
 * Connects by QR, hands the QR to the simulated phone (`scan`), waits for `connected` and
 * answers the sessionId: the one way every suite links a session.
 */
export async function pairByQr(
  api: PairingApi,
  scan: (qr: string, phone: string) => unknown,
  {
    sessionName,
    phone,
    webhookUrl,
    timeoutMs,
  }: { sessionName: string; phone: string; webhookUrl: string; timeoutMs: number },
): Promise<string> {
  const connect = await api.post('/v1/session/connect', { sessionName, webhookUrl })
  if (connect.status !== 200) throw new Error(`connect answered ${connect.status}: ${JSON.stringify(connect.body)}`)
  await scan(connect.body.qrCode, phone)
  await waitForSessionStatus(api, connect.body.sessionId, 'connected', timeoutMs)
  return connect.body.sessionId as string
}
