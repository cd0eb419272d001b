import { eq } from 'drizzle-orm'
import { chatwootChats, chatwootConfigs, chatwootMessages, webhookSubscriptions } from '../../db/schema'
import type { DbOrTx } from '../../webhooks/outbox'
import { notFound } from '../../errors'
import type { ChatwootConfigView } from '../../schemas/chatwoot'
import type { ServiceContext } from '../context'
import { findSession } from '../sessions/view'

/** The token as answered: its last 4 characters, the rest masked. */
const masked = (token: string) => `${'•'.repeat(8)}${token.slice(-4)}`

/** GET /v1/session/{id}/chatwoot; 404 when the session has none (or is another workspace's). */
export function chatwootView(ctx: ServiceContext, workspaceId: string, sessionId: string): ChatwootConfigView {
  findSession(ctx, workspaceId, sessionId)
  const row = ctx.db
    .select({ config: chatwootConfigs, url: webhookSubscriptions.url })
    .from(chatwootConfigs)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, chatwootConfigs.subscriptionId))
    .where(eq(chatwootConfigs.sessionId, sessionId))
    .get()
  if (!row) throw notFound(`Chatwoot integration of session "${sessionId}"`)
  const { config } = row
  return {
    sessionId,
    url: row.url,
    accountId: config.accountId,
    apiToken: masked(config.apiToken),
    inboxId: config.inboxId,
    inboxName: config.inboxName,
    signAgentName: config.signAgentName,
    reopenResolved: config.reopenResolved,
    startPending: config.startPending,
    ignoreGroups: config.ignoreGroups,
    state: config.lastError ? 'error' : 'ok',
    lastError: config.lastError,
    lastErrorAt: config.lastErrorAt?.toISOString() ?? null,
    deliveryStream: config.subscriptionId,
    updatedAt: config.updatedAt.toISOString(),
  }
}

/**
 * DELETE /v1/session/{id}/chatwoot: the integration's stream goes (its pending deliveries with
 * it, by cascade) and with it the mappings; Chatwoot keeps its inbox, contacts and conversations.
 */
export function removeChatwoot(ctx: ServiceContext, workspaceId: string, sessionId: string) {
  findSession(ctx, workspaceId, sessionId)
  const config = ctx.db.select().from(chatwootConfigs).where(eq(chatwootConfigs.sessionId, sessionId)).get()
  if (!config) throw notFound(`Chatwoot integration of session "${sessionId}"`)
  ctx.db.transaction((tx) => {
    tx.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, config.subscriptionId)).run()
    forgetMappings(tx, sessionId)
  })
  ctx.logger.info({ sessionId }, 'chatwoot disabled')
  return { sessionId, deleted: true as const }
}

/** The ids of one Chatwoot inbox mean nothing to another: dropped when the integration goes or moves. */
export function forgetMappings(tx: DbOrTx, sessionId: string): void {
  tx.delete(chatwootChats).where(eq(chatwootChats.sessionId, sessionId)).run()
  tx.delete(chatwootMessages).where(eq(chatwootMessages.sessionId, sessionId)).run()
}
