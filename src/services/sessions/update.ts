import { and, eq, ne } from 'drizzle-orm'
import type { PlanName } from '../../config'
import { sessions } from '../../db/schema'
import { GatewayError } from '../../errors'
import type { UpdateSessionInput } from '../../schemas/session'
import type { GatewayContext } from '../context'
import { rotateWebhookSecret } from '../../webhooks/secret'
import { assertWebhookEvents, assertWebhookUrl, resolveWebhookMessages } from './plan-rules'
import { assertProxyUrl, sessionProxy } from './proxy'
import { findSession, sessionView } from './view'

export async function updateSession(
  ctx: GatewayContext,
  {
    workspaceId,
    plan,
    sessionId,
    input,
  }: { workspaceId: string; plan: PlanName; sessionId: string; input: UpdateSessionInput },
) {
  findSession(ctx, workspaceId, sessionId)
  if (input.webhookMessages !== undefined) resolveWebhookMessages(ctx, plan, input.webhookMessages)
  assertWebhookEvents(ctx, plan, input.webhookEvents)
  if (input.webhookUrl !== undefined) await assertWebhookUrl(ctx, input.webhookUrl)
  if (input.proxyUrl) await assertProxyUrl(ctx, input.proxyUrl)

  const updated = ctx.db.transaction(
    (tx) => {
      if (input.sessionName !== undefined) {
        const clash = tx
          .select({ id: sessions.id })
          .from(sessions)
          .where(
            and(
              eq(sessions.workspaceId, workspaceId),
              eq(sessions.name, input.sessionName),
              ne(sessions.id, sessionId),
            ),
          )
          .get()
        if (clash) throw new GatewayError('session_name_taken', `A session named "${input.sessionName}" already exists`)
      }
      const webhookSecret = input.rotateWebhookSecret ? rotateWebhookSecret(tx, sessionId, ctx.clock.now()) : undefined
      const session = tx
        .update(sessions)
        .set({
          ...(input.sessionName !== undefined ? { name: input.sessionName } : {}),
          ...(input.webhookUrl !== undefined ? { webhookUrl: input.webhookUrl } : {}),
          ...(input.webhookMessages !== undefined ? { webhookMessages: input.webhookMessages } : {}),
          ...(input.webhookEvents !== undefined ? { webhookEvents: input.webhookEvents } : {}),
          ...(input.autoRejectCalls !== undefined ? { autoRejectCalls: input.autoRejectCalls } : {}),
          ...(input.proxyUrl !== undefined ? { proxyUrl: input.proxyUrl } : {}),
          ...(input.sendPacing !== undefined ? { sendPacing: input.sendPacing } : {}),
          updatedAt: ctx.clock.now(),
        })
        .where(eq(sessions.id, sessionId))
        .returning()
        .get()
      return { session, webhookSecret }
    },
    { behavior: 'immediate' },
  )
  if (input.autoRejectCalls !== undefined) ctx.engine.session(sessionId)?.setAutoRejectCalls(input.autoRejectCalls)
  // A live connection keeps the proxy it opened with; the next one (a reconnect, or a restart) takes this.
  if (input.proxyUrl !== undefined) {
    ctx.engine.session(sessionId)?.setProxy(sessionProxy(ctx, updated.session))
    ctx.logger.info({ sessionId, proxy: input.proxyUrl ? 'own' : 'default' }, 'session proxy changed')
  }
  if (updated.webhookSecret) ctx.logger.info({ sessionId }, 'webhook secret rotated')
  return { ...sessionView(updated.session), ...(updated.webhookSecret ? { webhookSecret: updated.webhookSecret } : {}) }
}
