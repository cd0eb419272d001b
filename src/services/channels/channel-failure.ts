import { EngineError } from '../../engine/whatsapp/port'
import { GatewayError } from '../../errors'
import { engineFailure } from '../engine-failure'

/**
 * A channel call's failure as the API answers it: WhatsApp's 404 is an unknown channel, its
 * 403 a refusal (forbidden, with WhatsApp's words), the rest as for any session call.
 */
export function channelFailure(error: unknown, what: string, channelId?: string): GatewayError {
  if (error instanceof GatewayError) return error
  if (error instanceof EngineError && error.kind === 'not_found')
    return new GatewayError('not_found', `WhatsApp knows no channel ${channelId ?? 'by that link'}`)
  if (error instanceof EngineError && error.kind === 'refused' && error.code === 403)
    return new GatewayError('forbidden', error.message)
  return engineFailure(error, {
    timeout: `WhatsApp did not answer ${what} in time`,
    upstream: `WhatsApp answered ${what} with an error`,
    not_connected: `The session went offline before WhatsApp answered ${what}`,
  })
}
