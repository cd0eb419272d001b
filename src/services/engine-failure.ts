import { EngineError } from '../engine/whatsapp/types'
import { GatewayError, type ErrorCode } from '../errors'

const codeByKind: Record<EngineError['kind'], ErrorCode> = {
  timeout: 'upstream_timeout',
  upstream: 'upstream_error',
  not_connected: 'session_not_connected',
}

/**
 * The API error for a failure on the WhatsApp side, with the caller's words for each kind.
 * Anything the engine did not classify is the network answering with an error.
 */
export function engineFailure(error: unknown, messages: Record<EngineError['kind'], string>): GatewayError {
  const kind = error instanceof EngineError ? error.kind : 'upstream'
  return new GatewayError(codeByKind[kind], messages[kind])
}
