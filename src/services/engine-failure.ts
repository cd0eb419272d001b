import { EngineError } from '../engine/whatsapp/types'
import { GatewayError, type ErrorCode } from '../errors'

const codeByKind: Record<EngineError['kind'], ErrorCode> = {
  timeout: 'upstream_timeout',
  upstream: 'upstream_error',
  not_connected: 'session_not_connected',
  not_found: 'not_found',
  refused: 'upstream_error',
}

type Kind = EngineError['kind']

/**
 * The API error for a failure on the WhatsApp side, with the caller's words for each kind.
 * Anything the engine did not classify is the network answering with an error; so is a
 * not_found the caller has no words for (it did not expect WhatsApp to lack something), and a
 * refusal (another 4xx): the callers that expect refusals read them themselves (groups/failure.ts).
 */
export function engineFailure(
  error: unknown,
  messages: Record<Exclude<Kind, 'not_found' | 'refused'>, string> & { not_found?: string },
): GatewayError {
  let kind: Kind = error instanceof EngineError ? error.kind : 'upstream'
  if ((kind === 'not_found' && messages.not_found === undefined) || kind === 'refused') kind = 'upstream'
  return new GatewayError(codeByKind[kind], messages[kind as Exclude<Kind, 'refused'>]!)
}
