import type { PlanName } from '../../config'
import { GatewayError } from '../../errors'
import type { NumberCheck } from '../../engine/whatsapp/port'
import type { ContactCheckInput } from '../../schemas/contact'
import { countryCodeHint, type PhoneNumber } from '../../schemas/phone'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { quotaState, quotaWindow, refundChecks, reserveChecks } from './quota'

/** Each number once, by digits: `+1 555-123-0001` and `15551230001` are one check. */
const distinctDigits = (phones: PhoneNumber[]) => [...new Set(phones.map((p) => p.digits))]

/** The network's answers (keyed by digits) back onto the phones as the client wrote them, in order. */
function answerAsSent(phones: PhoneNumber[], checks: NumberCheck[]) {
  const byDigits = new Map(checks.map((check) => [check.phone, check]))
  return phones.map(({ input, digits }) => {
    const check = byDigits.get(digits)
    if (!check?.exists) {
      const hint = countryCodeHint({ input, digits })
      return { phone: input, exists: false, ...(hint ? { hint } : {}) }
    }
    return {
      phone: input,
      exists: true,
      ...(check.jid ? { jid: check.jid } : {}),
      ...(check.lid ? { lid: check.lid } : {}),
    }
  })
}

/**
 * Which numbers have a WhatsApp account: every different number counts once against the
 * workspace's daily quota first; one network query answers the batch; a failed query gives
 * the checks back.
 */
export async function checkContacts(
  ctx: GatewayContext,
  { workspaceId, plan, input }: { workspaceId: string; plan: PlanName; input: ContactCheckInput },
) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const handle = connectedHandle(ctx, session)

  const numbers = distinctDigits(input.phones)
  const now = ctx.clock.now()
  const window = quotaWindow(now, ctx.config.plans[plan].dailyContactChecks)
  let used: number
  try {
    used = reserveChecks(ctx, workspaceId, numbers.length, window)
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'daily_limit_exceeded')
      ctx.metrics.quotaRefused('contact_checks')
    throw error
  }

  let checks: Awaited<ReturnType<typeof handle.checkNumbers>>
  try {
    checks = await handle.checkNumbers(numbers)
  } catch (error) {
    refundChecks(ctx, workspaceId, numbers.length, window)
    ctx.metrics.contactChecks('failed', numbers.length)
    ctx.logger.warn(
      { err: error, sessionId: session.id, refunded: numbers.length },
      'contact check failed; quota refunded',
    )
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer the contact check in time; nothing was counted',
      upstream: 'WhatsApp answered the contact check with an error; nothing was counted',
      not_connected: 'The session went offline; nothing was counted',
    })
  }

  const results = answerAsSent(input.phones, checks)
  const found = checks.filter((check) => check.exists).length
  ctx.metrics.contactChecks('exists', found)
  ctx.metrics.contactChecks('not_exists', numbers.length - found)
  const exists = results.filter((r) => r.exists).length
  return {
    body: { success: true, results, summary: { total: results.length, exists, notExists: results.length - exists } },
    quota: quotaState(window, used),
  }
}
