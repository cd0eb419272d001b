import type { Context } from 'hono'
import { bearerToken } from '../../../../middleware/bearer-token'
import type { ErrorCode } from '../../../../../errors'
import { codeToStatus } from '../../../../../errors'
import type { StoredEvent } from '../../../../../services/events/read'

/** The subprotocol a client offers (first) and the gateway echoes. */
export const EVENTS_PROTOCOL = 'wag.events.v1'
/** `wag.bearer.<API key or JWT>`: the credential as a subprotocol, where a browser cannot set headers. Never echoed. */
export const BEARER_PROTOCOL_PREFIX = 'wag.bearer.'

export interface OfferedProtocols {
  /** EVENTS_PROTOCOL when offered: the one the handshake selects. */
  protocol: string | undefined
  token: string | undefined
}

/** The handshake's credential: the `wag.bearer.` subprotocol, else `Authorization: Bearer`. */
export function handshakeCredential(c: Context): string | undefined {
  const offered = readProtocols(c.req.header('sec-websocket-protocol'))
  if (offered.token) return offered.token
  return c.req.header('authorization') ? bearerToken(c, '<API key>') : undefined
}

/** Reads `Sec-WebSocket-Protocol: wag.events.v1, wag.bearer.<credential>`. */
export function readProtocols(header: string | undefined): OfferedProtocols {
  const offered = (header ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  const bearer = offered.find((p) => p.startsWith(BEARER_PROTOCOL_PREFIX))
  return {
    protocol: offered.includes(EVENTS_PROTOCOL) ? EVENTS_PROTOCOL : undefined,
    token: bearer ? bearer.slice(BEARER_PROTOCOL_PREFIX.length) || undefined : undefined,
  }
}

/**
 * One event: `{"id","type","data"}`, `data` the very bytes a webhook delivery carries (the
 * stored body is spliced in, not parsed and written again).
 */
export const eventFrame = (event: StoredEvent): string =>
  `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"data":${event.body}}`

/** Control frames carry no `id`; event types are dotted, these are not. */
export const READY_FRAME = '{"type":"ready"}'
export const PING_FRAME = '{"type":"ping"}'

/** Close codes: 4000 + the HTTP status an HTTP request would have got, so one table explains both. */
export const closeCodeOf = (code: ErrorCode): number => 4000 + codeToStatus(code)
export const CLOSE = {
  goingAway: 1001,
  unsupportedData: 1003,
  policyViolation: 1008,
  internalError: 1011,
  unauthorized: 4401,
} as const

/** A close reason is at most 123 bytes (RFC 6455 §5.5); longer messages are cut. */
export function closeReason(message: string): string {
  const bytes = new TextEncoder().encode(message)
  if (bytes.length <= 123) return message
  return `${new TextDecoder().decode(bytes.slice(0, 120)).replace(/\uFFFD$/, '')}…`
}

/** The first client frame when the credential was not in the handshake: `{"type":"auth","token":"…"}`. */
export function readAuthFrame(data: unknown): string | undefined {
  if (typeof data !== 'string') return undefined
  try {
    const frame = JSON.parse(data) as { type?: unknown; token?: unknown }
    return frame?.type === 'auth' && typeof frame.token === 'string' && frame.token.length > 0 ? frame.token : undefined
  } catch {
    return undefined
  }
}
