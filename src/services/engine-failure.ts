import { EngineError } from '../engine/whatsapp/port'
import { GatewayError, type ErrorCode } from '../errors'

const codeByKind: Record<EngineError['kind'], ErrorCode> = {
  timeout: 'upstream_timeout',
  upstream: 'upstream_error',
  not_connected: 'session_not_connected',
  not_found: 'not_found',
  gone: 'media_expired',
  too_large: 'payload_too_large',
  corrupt: 'upstream_error',
  no_media: 'not_found',
  refused: 'upstream_error',
}

type Kind = EngineError['kind']
/** Kinds only some calls can meet (a send never meets an expired file): words for them are optional. */
type Occasional = 'not_found' | 'gone' | 'too_large' | 'corrupt' | 'no_media'

/**
 * The API error for a failure on the WhatsApp side, with the caller's words for each kind.
 * Anything the engine did not classify is the network answering with an error; so is an
 * occasional kind the caller has no words for (it did not expect WhatsApp to say that), and a
 * refusal (another 4xx): the callers that expect refusals read them themselves (groups/failure.ts).
 */
export function engineFailure(
  error: unknown,
  messages: Record<Exclude<Kind, Occasional | 'refused'>, string> & Partial<Record<Occasional, string>>,
): GatewayError {
  let kind: Kind = error instanceof EngineError ? error.kind : 'upstream'
  if (kind === 'refused' || messages[kind as Exclude<Kind, 'refused'>] === undefined) kind = 'upstream'
  return new GatewayError(codeByKind[kind], messages[kind as Exclude<Kind, 'refused'>]!)
}
