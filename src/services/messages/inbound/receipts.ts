import type { EngineFact } from '../../../engine/whatsapp/port'
import type { GatewayContext } from '../../context'
import { advanceStatus } from '../records/records'

/**
 * A server ack or a receipt for a message we sent. Group receipts come per participant: the
 * record shows the furthest any participant got (delivered to one, read by one).
 */
export function applyReceipt(ctx: GatewayContext, fact: Extract<EngineFact, { type: 'receipt' }>): void {
  const updated = advanceStatus(ctx, fact.sessionId, fact.messageId, {
    status: fact.status,
    reason: fact.reason ?? null,
  })
  if (!updated) return
  if (fact.status === 'failed') {
    ctx.logger.warn(
      { sessionId: fact.sessionId, messageId: fact.messageId, reason: fact.reason },
      'WhatsApp refused a message',
    )
  }
}
