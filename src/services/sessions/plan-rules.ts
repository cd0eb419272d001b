import type { GatewayConfig, PlanName } from '../../config'
import { GatewayError } from '../../errors'
import { resolvedUrlProblem } from '../../net/url-guard'
import { isMessageEvent, type WebhookEventType } from '../../shared/event-types'
import { validationError } from '../validation-error'
import type { GatewayContext, ServiceContext } from '../context'

/**
 * The one home of the plan's message webhooks: asking for them, as `webhookMessages: true` or as
 * `message.*` types in `webhookEvents`, is 403 on a plan without them.
 */
function assertMessageWebhooks(ctx: ServiceContext, plan: PlanName, asked: string): void {
  if (ctx.config.plans[plan].messageWebhooks) return
  throw new GatewayError('plan_required', `Message webhooks (${asked}) are not part of the ${plan} plan`, {
    feature: 'webhookMessages',
    plan,
  })
}

/** webhookMessages as asked, or the plan's default; asking for what the plan lacks is 403. */
export function resolveWebhookMessages(ctx: ServiceContext, plan: PlanName, asked: boolean | undefined): boolean {
  if (asked) assertMessageWebhooks(ctx, plan, 'webhookMessages: true')
  return asked ?? ctx.config.plans[plan].messageWebhooks
}

/** A webhookEvents list naming message.* types needs the plan's message webhooks (null asks for nothing). */
export function assertWebhookEvents(
  ctx: ServiceContext,
  plan: PlanName,
  asked: readonly WebhookEventType[] | null | undefined,
): void {
  const messageTypes = asked?.filter(isMessageEvent) ?? []
  if (messageTypes.length > 0) assertMessageWebhooks(ctx, plan, messageTypes.join(', '))
}

/**
 * The plan's cap on live sessions (pending, connecting, connected): one more connect past it is
 * 403 with the figures. `live` is counted by the caller in the transaction that claims the name
 * (the session rows on Node, the workspace object's index on the edge).
 */
export function assertSessionCap(config: Pick<GatewayConfig, 'plans'>, plan: PlanName, live: number): void {
  const limit = config.plans[plan].maxSessions
  if (live < limit) return
  throw new GatewayError(
    'plan_required',
    `The ${plan} plan allows ${limit} sessions pairing or online at once; disconnect one first`,
    {
      feature: 'sessions',
      plan,
      limit,
      live,
    },
  )
}

/**
 * Scheme, literal addresses and local names, then what the name resolves to right now: for a
 * session's webhookUrl and every other webhook (`path` names the field in the error).
 */
export async function assertWebhookUrl(ctx: GatewayContext, url: string, path = 'webhookUrl'): Promise<void> {
  const policy = { allowHttp: ctx.config.webhookAllowHttp, allowPrivateAddresses: ctx.config.allowPrivateAddresses }
  const problem = await resolvedUrlProblem(url, policy, ctx.resolver)
  if (problem) throw validationError([{ path, message: problem }])
}
