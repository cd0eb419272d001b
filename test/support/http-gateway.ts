import type { WhatsAppSimulator } from '../wa-sim/simulator'
import { WEBHOOK } from './simulated-gateway'
import { pollUntil } from './poll'

export interface HttpGateway {
  post(path: string, body: unknown): Promise<{ status: number; body: any }>
  get(path: string): Promise<{ status: number; body: any }>
  /** Connects by QR over HTTP, lets the simulated phone scan it, polls until `connected`. */
  pairByQr(sim: WhatsAppSimulator, sessionName: string, phone: string): Promise<string>
}

/** A gateway running in another process (the packed library, the binary), called over loopback HTTP. */
export function httpGateway(baseUrl: string, key: string): HttpGateway {
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body) })
  const get = (path: string) => call(path)
  return {
    post,
    get,
    async pairByQr(sim, sessionName, phone) {
      const connect = await post('/v1/session/connect', { sessionName, webhookUrl: WEBHOOK })
      if (connect.status !== 200) throw new Error(`connect answered ${connect.status}: ${JSON.stringify(connect.body)}`)
      sim.scan(connect.body.qrCode, phone)
      await pollUntil(
        async () =>
          (await get('/v1/session/all')).body.sessions.find(
            (s: { sessionId: string }) => s.sessionId === connect.body.sessionId,
          ),
        (session) => session?.status === 'connected',
        { timeoutMs: 20_000, what: `session ${connect.body.sessionId} to connect` },
      )
      return connect.body.sessionId as string
    },
  }
}
