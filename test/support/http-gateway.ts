import type { WhatsAppSimulator } from '../wa-sim/simulator'
import { WEBHOOK } from './simulated-gateway'
import { pairByQr } from './pairing'

export interface HttpGateway {
  post(path: string, body: unknown): Promise<{ status: number; body: any }>
  get(path: string): Promise<{ status: number; body: any }>
  /** Connects by QR over HTTP, lets the simulated phone scan it, polls until `connected`. */
  pairByQr(sim: WhatsAppSimulator, sessionName: string, phone: string): Promise<string>
}

/**
 * A gateway running in another process (the packed library, the binary), called over loopback HTTP.
 * `pairingTimeoutMs`: longer for a slow process (the arm64 binary under qemu).
 */
export function httpGateway(baseUrl: string, key: string, { pairingTimeoutMs = 20_000 } = {}): HttpGateway {
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
    pairByQr: (sim, sessionName, phone) =>
      pairByQr({ post, get }, (qr, as) => sim.scan(qr, as), {
        sessionName,
        phone,
        webhookUrl: WEBHOOK,
        timeoutMs: pairingTimeoutMs,
      }),
  }
}
