import { eq } from 'drizzle-orm'
import type { PlanName } from '../../../config'
import { webhookSubscriptions } from '../../../db/schema'
import type { UpdateWebhookInput } from '../../../schemas/webhook-subscription'
import { newWebhookSecret, ROTATION_OVERLAP_MS } from '../../../webhooks/secret'
import type { GatewayContext } from '../../context'
import { assertWebhookEvents, assertWebhookUrl } from '../../sessions/plan-rules'
import { checkScope, findWebhook, type WebhookScope, webhookView } from './scope'

/**
 * Changes a webhook's URL, events or description, from its next delivery on, and rotates its
 * secret on request: the new one is answered once, and the replaced one signs too for 24 h
 * (a second rotation within them keeps only the secret it replaced).
 */
export async function updateWebhook(
  ctx: GatewayContext,
  {
    scope,
    plan,
    webhookId,
    input,
  }: { scope: WebhookScope; plan: PlanName; webhookId: string; input: UpdateWebhookInput },
) {
  checkScope(ctx.db, scope)
  findWebhook(ctx.db, scope, webhookId)
  assertWebhookEvents(ctx, plan, input.events)
  if (input.url !== undefined) await assertWebhookUrl(ctx, input.url, 'url')
  const now = ctx.clock.now()
  const updated = ctx.db.transaction(
    (tx) => {
      const current = findWebhook(tx, scope, webhookId) // it may have been deleted while the URL was checked
      const secret = input.rotateSecret ? newWebhookSecret() : undefined
      const row = tx
        .update(webhookSubscriptions)
        .set({
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.events !== undefined ? { events: input.events } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(secret
            ? {
                secret,
                previousSecret: current.secret,
                previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
              }
            : {}),
          messages: ctx.config.plans[plan].messageWebhooks,
          updatedAt: now,
        })
        .where(eq(webhookSubscriptions.id, webhookId))
        .returning()
        .get()
      return { row, secret }
    },
    { behavior: 'immediate' },
  )
  if (updated.secret) ctx.logger.info({ ...scope, webhookId }, 'webhook secret rotated')
  return { ...webhookView(updated.row), ...(updated.secret ? { secret: updated.secret } : {}) }
}
