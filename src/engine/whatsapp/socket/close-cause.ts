import type { CloseCause } from '../types'

export interface SocketEnd {
  /** Baileys' status code from lastDisconnect. */
  code?: number
  message?: string
  /** What the WebSocket layer threw (Baileys keeps it as the Boom's data), e.g. a Node network error. */
  data?: unknown
  /** The socket went through a proxy. */
  viaProxy: boolean
  /** The WebSocket opened: whatever a proxy had to do, it did. */
  reachedServer: boolean
  /** A liveness check of ours found the socket silent and closed it. */
  probeFailed: boolean
}

/** Node's words for a peer that did not answer or does not exist. */
const UNREACHABLE =
  /\b(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ECONNRESET|ENOTFOUND|EAI_AGAIN|EPIPE)\b|timed? ?out/i

/**
 * What the engine can tell about a close beyond its code. Pure: every branch is unit-tested.
 * Baileys' keep-alive closes a socket with no frame for keepAliveIntervalMs + 5 s as 408
 * "Connection was lost"; WhatsApp refuses an outdated client with <failure reason=405>.
 */
export function closeCause(end: SocketEnd): CloseCause | undefined {
  if (end.probeFailed) return 'unresponsive'
  if (end.code === 405) return 'outdated_version'
  if (end.code === 408 && end.message === 'Connection was lost') return 'unresponsive'
  if (!end.viaProxy || end.reachedServer) return undefined
  const code = (end.data as { code?: unknown } | undefined)?.code
  const words = `${typeof code === 'string' ? code : ''} ${end.message ?? ''}`
  return UNREACHABLE.test(words) ? 'proxy_unreachable' : 'proxy_refused'
}
