import { and, asc, eq, isNull } from 'drizzle-orm'
import { sessions, type WebhookSubscription, webhookSubscriptions } from '../../../db/schema'
import { notFound } from '../../../errors'
import type { WebhookView } from '../../../schemas/webhook-subscription'
import type { DbOrTx } from '../../../webhooks/outbox'
import { sessionNotFound } from '../../sessions/view'

/** Whose webhooks: one session's (`sessionId`), or the workspace's own (`sessionId` null). */
export interface WebhookScope {
  workspaceId: string
  sessionId: string | null
}

/** A session of another workspace (or none) is 404, as everywhere. */
export function checkScope(db: DbOrTx, { workspaceId, sessionId }: WebhookScope): void {
  if (sessionId === null) return
  const found = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.workspaceId, workspaceId)))
    .get()
  if (!found) throw sessionNotFound(db, workspaceId, sessionId)
}

/** The scope's webhooks: never an integration's stream (a Chatwoot inbox), which is not one of them. */
export const inScope = ({ workspaceId, sessionId }: WebhookScope) =>
  and(
    eq(webhookSubscriptions.kind, 'webhook'),
    eq(webhookSubscriptions.workspaceId, workspaceId),
    sessionId === null ? isNull(webhookSubscriptions.sessionId) : eq(webhookSubscriptions.sessionId, sessionId),
  )

/** The scope's webhook; another scope's (another session's, the workspace's, another workspace's) is 404. */
export function findWebhook(db: DbOrTx, scope: WebhookScope, webhookId: string): WebhookSubscription {
  const row = db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, webhookId), inScope(scope)))
    .get()
  if (!row) throw notFound(`Webhook "${webhookId}"`)
  return row
}

/** The scope's webhooks, oldest first. */
export function scopeWebhooks(db: DbOrTx, scope: WebhookScope): WebhookSubscription[] {
  return db
    .select()
    .from(webhookSubscriptions)
    .where(inScope(scope))
    .orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.id))
    .all()
}

/** What the API shows of a webhook: never its secret. */
export const webhookView = (row: WebhookSubscription): WebhookView => ({
  webhookId: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
})
