import type { PlanName } from '../../config'
import { GatewayError } from '../../errors'
import { urlProblem } from '../../net/url-guard'
import { validationError } from '../validation-error'
import type { ServiceContext } from '../context'

/** webhookMessages as asked, or the plan's default; asking for what the plan lacks is 403. */
export function resolveWebhookMessages(ctx: ServiceContext, plan: PlanName, asked: boolean | undefined): boolean {
  const allowed = ctx.config.plans[plan].messageWebhooks
  if (asked && !allowed) {
    throw new GatewayError('plan_required', `Message webhooks are not part of the ${plan} plan`, { feature: 'webhookMessages', plan })
  }
  return asked ?? allowed
}

export function assertWebhookUrl(ctx: ServiceContext, url: string): void {
  const problem = urlProblem(url, {
    allowHttp: ctx.config.webhookAllowHttp,
    allowPrivateAddresses: ctx.config.allowPrivateAddresses,
  })
  if (problem) throw validationError([{ path: 'webhookUrl', message: problem }])
}
