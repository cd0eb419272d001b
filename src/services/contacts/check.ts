import type { PlanName } from '../../config'
import { GatewayError } from '../../errors'
import type { ContactCheckInput } from '../../schemas/contact'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { quotaWindow, rateLimitHeaders, refundChecks, reserveChecks } from './quota'

/**
 * Which numbers have a WhatsApp account: every number counts against the workspace's
 * daily quota first; one network query answers the batch; a failed query gives the
 * checks back.
 */
export async function checkContacts(
  ctx: GatewayContext,
  { workspaceId, plan, input }: { workspaceId: string; plan: PlanName; input: ContactCheckInput },
) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const handle = connectedHandle(ctx, session)

  const now = ctx.clock.now()
  const window = quotaWindow(now, ctx.config.plans[plan].dailyContactChecks)
  const used = reserveChecks(ctx, workspaceId, input.phones.length, window)

  let results
  try {
    results = await handle.checkNumbers(input.phones)
  } catch (error) {
    refundChecks(ctx, workspaceId, input.phones.length, window)
    ctx.logger.warn({ err: error, sessionId: session.id, refunded: input.phones.length }, 'contact check failed; quota refunded')
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer the contact check in time; nothing was counted',
      upstream: 'WhatsApp answered the contact check with an error; nothing was counted',
      not_connected: 'The session went offline; nothing was counted',
    })
  }

  const exists = results.filter((r) => r.exists).length
  return {
    body: { success: true, results, summary: { total: results.length, exists, notExists: results.length - exists } },
    headers: rateLimitHeaders(window, used, now),
  }
}
