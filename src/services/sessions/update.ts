import { and, eq, ne } from 'drizzle-orm'
import type { PlanName } from '../../config'
import { sessions, storedWebhookUrl } from '../../db/schema'
import { abandonPrimaryDeliveries } from '../../webhooks/queue'
import { GatewayError } from '../../errors'
import type { UpdateSessionInput } from '../../schemas/session'
import type { GatewayContext } from '../context'
import { rotateWebhookSecret } from '../../webhooks/secret'
import { assertWebhookEvents, assertWebhookUrl, resolveWebhookMessages } from './plan-rules'
import { assertProxyUrl, sessionProxy } from './proxy'
import { historySetting } from '../history/setting'
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
  if (input.webhookUrl) await assertWebhookUrl(ctx, input.webhookUrl)
  if (input.proxyUrl) await assertProxyUrl(ctx, input.proxyUrl)
  const history = input.history ? historySetting(ctx, input.history) : input.history

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
      // No URL, nothing to deliver to: what still waited for the old one ends here, in the log and replayable.
      const abandoned = input.webhookUrl === null ? abandonPrimaryDeliveries(tx, sessionId, ctx.clock.now()) : 0
      const webhookSecret = input.rotateWebhookSecret ? rotateWebhookSecret(tx, sessionId, ctx.clock.now()) : undefined
      const session = tx
        .update(sessions)
        .set({
          ...(input.sessionName !== undefined ? { name: input.sessionName } : {}),
          ...(input.webhookUrl !== undefined ? { webhookUrl: storedWebhookUrl(input.webhookUrl) } : {}),
          ...(input.webhookMessages !== undefined ? { webhookMessages: input.webhookMessages } : {}),
          ...(input.webhookEvents !== undefined ? { webhookEvents: input.webhookEvents } : {}),
          ...(input.autoRejectCalls !== undefined ? { autoRejectCalls: input.autoRejectCalls } : {}),
          ...(input.proxyUrl !== undefined ? { proxyUrl: input.proxyUrl } : {}),
          ...(input.sendPacing !== undefined ? { sendPacing: input.sendPacing } : {}),
          ...(history !== undefined ? { history } : {}),
          updatedAt: ctx.clock.now(),
        })
        .where(eq(sessions.id, sessionId))
        .returning()
        .get()
      return { session, webhookSecret, abandoned }
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
  if (input.webhookUrl !== undefined)
    ctx.logger.info(
      { sessionId, webhook: input.webhookUrl ? 'set' : 'none', abandonedDeliveries: updated.abandoned },
      'session webhook changed',
    )
  return { ...sessionView(updated.session), ...(updated.webhookSecret ? { webhookSecret: updated.webhookSecret } : {}) }
}
