import type { ServiceContext } from '../../context'
import { checkScope, scopeWebhooks, type WebhookScope, webhookView } from './scope'

/** A session's webhooks besides its webhookUrl, or the workspace's own: no secrets. */
export function listWebhooks(ctx: ServiceContext, scope: WebhookScope) {
  checkScope(ctx.db, scope)
  return { webhooks: scopeWebhooks(ctx.db, scope).map(webhookView) }
}
