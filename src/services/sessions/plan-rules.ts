import type { PlanName } from '../../config'
import { GatewayError } from '../../errors'
import { resolvedUrlProblem } from '../../net/url-guard'
import { validationError } from '../validation-error'
import type { GatewayContext, ServiceContext } from '../context'

/** webhookMessages as asked, or the plan's default; asking for what the plan lacks is 403. */
export function resolveWebhookMessages(ctx: ServiceContext, plan: PlanName, asked: boolean | undefined): boolean {
  const allowed = ctx.config.plans[plan].messageWebhooks
  if (asked && !allowed) {
    throw new GatewayError('plan_required', `Message webhooks are not part of the ${plan} plan`, {
      feature: 'webhookMessages',
      plan,
    })
  }
  return asked ?? allowed
}

/** Scheme, literal addresses and local names, then what the name resolves to right now. */
export async function assertWebhookUrl(ctx: GatewayContext, url: string): Promise<void> {
  const policy = { allowHttp: ctx.config.webhookAllowHttp, allowPrivateAddresses: ctx.config.allowPrivateAddresses }
  const problem = await resolvedUrlProblem(url, policy, ctx.resolver)
  if (problem) throw validationError([{ path: 'webhookUrl', message: problem }])
}
