import { eq } from 'drizzle-orm'
import { webhookSubscriptions } from '../../../db/schema'
import type { ServiceContext } from '../../context'
import { checkScope, findWebhook, type WebhookScope } from './scope'

/**
 * Removes a webhook. Its deliveries go with it (the foreign key cascades): nothing more is sent
 * to it, and its entries leave the delivery log. A POST already under way finishes.
 */
export function deleteWebhook(ctx: ServiceContext, { scope, webhookId }: { scope: WebhookScope; webhookId: string }) {
  checkScope(ctx.db, scope)
  ctx.db.transaction(
    (tx) => {
      findWebhook(tx, scope, webhookId)
      tx.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, webhookId)).run()
    },
    { behavior: 'immediate' },
  )
  ctx.logger.info({ ...scope, webhookId }, 'webhook deleted')
  return { webhookId, deleted: true as const }
}
