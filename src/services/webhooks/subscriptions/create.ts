import { count } from 'drizzle-orm'
import type { PlanName } from '../../../config'
import { webhookSubscriptions } from '../../../db/schema'
import { GatewayError } from '../../../errors'
import { newWebhookId } from '../../../ids'
import { type CreateWebhookInput, MAX_WEBHOOKS } from '../../../schemas/webhook-subscription'
import { newWebhookSecret } from '../../../webhooks/secret'
import type { GatewayContext } from '../../context'
import { assertWebhookEvents, assertWebhookUrl } from '../../sessions/plan-rules'
import { checkScope, inScope, type WebhookScope, webhookView } from './scope'

/**
 * Adds a webhook to a session or to the workspace, with its own secret (answered here only).
 * The URL passes the webhookUrl guard; at most MAX_WEBHOOKS per scope, counted in the
 * transaction that inserts, so concurrent creates cannot pass the cap together.
 */
export async function createWebhook(
  ctx: GatewayContext,
  { scope, plan, input }: { scope: WebhookScope; plan: PlanName; input: CreateWebhookInput },
) {
  checkScope(ctx.db, scope)
  assertWebhookEvents(ctx, plan, input.events)
  await assertWebhookUrl(ctx, input.url, 'url')
  const now = ctx.clock.now()
  const row = {
    id: newWebhookId(),
    kind: 'webhook' as const,
    ...scope,
    url: input.url,
    messages: ctx.config.plans[plan].messageWebhooks,
    events: input.events ?? null,
    description: input.description ?? null,
    secret: newWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  }
  ctx.db.transaction(
    (tx) => {
      checkScope(tx, scope) // the session may have gone while the URL was checked
      const existing = tx.select({ n: count() }).from(webhookSubscriptions).where(inScope(scope)).get()!.n
      if (existing >= MAX_WEBHOOKS) throw limitReached(scope)
      tx.insert(webhookSubscriptions).values(row).run()
    },
    { behavior: 'immediate' },
  )
  ctx.logger.info({ ...scope, webhookId: row.id }, 'webhook added')
  return { ...webhookView(row), secret: row.secret }
}

const limitReached = (scope: WebhookScope) =>
  new GatewayError(
    'webhook_limit_reached',
    scope.sessionId === null
      ? `This workspace already has ${MAX_WEBHOOKS} webhooks of its own, the most it may have; delete one first`
      : `This session already has ${MAX_WEBHOOKS} webhooks besides its webhookUrl, the most it may have; delete one first`,
    { limit: MAX_WEBHOOKS },
  )
