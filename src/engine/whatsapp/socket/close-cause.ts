import type { CloseCause } from '../port'

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

/**
 * What the engine can tell about a close beyond its code. Pure: every branch is unit-tested.
 * Baileys' keep-alive closes a socket with no frame for keepAliveIntervalMs + 5 s as 408
 * "Connection was lost"; WhatsApp refuses an outdated client with <failure reason=405>.
 * Whatever stopped a proxied socket before the WebSocket opened is `proxy_unreachable`: a
 * closed port, a refusal, a timeout and a service that is no proxy look alike to the workspace
 * (otherwise its proxy setting would map what listens where); the detail goes to the log.
 */
export function closeCause(end: SocketEnd): CloseCause | undefined {
  if (end.probeFailed) return 'unresponsive'
  if (end.code === 405) return 'outdated_version'
  if (end.code === 408 && end.message === 'Connection was lost') return 'unresponsive'
  if (!end.viaProxy || end.reachedServer) return undefined
  return 'proxy_unreachable'
}

/** What the operator's log says of a proxied socket that never reached WhatsApp: the error code and message. */
export function proxyFailureDetail(end: Pick<SocketEnd, 'message' | 'data'>): string {
  const code = (end.data as { code?: unknown } | undefined)?.code
  return [typeof code === 'string' ? code : undefined, end.message].filter(Boolean).join(': ') || 'closed'
}
