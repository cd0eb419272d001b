/**
 * The one error type of the gateway. Services throw it with a code from a closed set;
 * the HTTP layer maps the code to a status (services never think in statuses).
 */
export const errorCodes = {
  validation_error: 400,
  unauthorized: 401,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  session_name_taken: 409,
  session_not_connected: 409,
  session_state_conflict: 409,
  message_not_editable: 409,
  idempotency_key_reused: 409,
  webhook_limit_reached: 409,
  not_business_account: 409,
  media_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  media_unavailable: 422,
  daily_limit_exceeded: 429,
  rate_limited: 429,
  internal_error: 500,
  upstream_error: 502,
  upstream_timeout: 504,
} as const

export type ErrorCode = keyof typeof errorCodes
export type ErrorStatus = (typeof errorCodes)[ErrorCode]

export function codeToStatus(code: ErrorCode): ErrorStatus {
  return errorCodes[code]
}

export class GatewayError extends Error {
  override readonly name = 'GatewayError'

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Extra response headers, set only by HTTP-layer code (e.g. the rate limiter); never secrets. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export const notFound = (what: string) => new GatewayError('not_found', `${what} not found`)
