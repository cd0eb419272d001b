import { eq } from 'drizzle-orm'
import type { PlanName } from '../../config'
import { chatwootConfigs, webhookSubscriptions } from '../../db/schema'
import { GatewayError } from '../../errors'
import { newWebhookId } from '../../ids'
import type { ChatwootConfigInput, ChatwootConfigView } from '../../schemas/chatwoot'
import type { WebhookEventType } from '../../shared/event-types'
import { newWebhookSecret } from '../../webhooks/secret'
import type { GatewayContext } from '../context'
import { assertWebhookUrl } from '../sessions/plan-rules'
import { validationError } from '../validation-error'
import { findSession } from '../sessions/view'
import { ChatwootError, chatwootClient } from './client'
import { callbackUrl, chatwootNetwork } from './network'
import { chatwootView, forgetMappings } from './view'

/** What the integration mirrors: messages both ways, their edits, deletions and reactions. */
export const CHATWOOT_EVENTS: WebhookEventType[] = [
  'message.received',
  'message.status',
  'message.edited',
  'message.deleted',
  'message.reaction',
]

/**
 * PUT /v1/session/{id}/chatwoot: checks the address, then Chatwoot itself (the token lists the
 * account's inboxes; the inbox is found by name or created with the gateway's callback URL),
 * and only then saves: a wrong token or an unreachable Chatwoot leaves nothing half-saved.
 */
export async function configureChatwoot(
  ctx: GatewayContext,
  args: { workspaceId: string; plan: PlanName; sessionId: string; input: ChatwootConfigInput },
): Promise<ChatwootConfigView> {
  const { input } = args
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  if (!ctx.config.plans[args.plan].messageWebhooks) {
    throw new GatewayError('plan_required', `Chatwoot needs message webhooks, which the ${args.plan} plan has not`, {
      feature: 'chatwoot',
      plan: args.plan,
    })
  }
  await assertWebhookUrl(ctx, input.url, 'url')
  const existing = ctx.db.select().from(chatwootConfigs).where(eq(chatwootConfigs.sessionId, session.id)).get()
  const apiToken = input.apiToken ?? existing?.apiToken
  if (!apiToken) throw validationError([{ path: 'apiToken', message: 'is required to turn Chatwoot on' }])
  const inboxName = input.inboxName ?? session.name
  const client = chatwootClient({ url: input.url, accountId: input.accountId, apiToken }, chatwootNetwork(ctx))
  const webhookUrl = callbackUrl(ctx, session.id)
  let inbox: { id: number; name: string }
  try {
    inbox =
      (await client.listInboxes()).find((candidate) => candidate.name === inboxName) ??
      (await client.createApiInbox(inboxName, webhookUrl))
  } catch (error) {
    throw asRequestError(error)
  }

  const now = ctx.clock.now()
  const settings = {
    accountId: input.accountId,
    apiToken,
    inboxId: inbox.id,
    inboxName: inbox.name,
    signAgentName: input.signAgentName ?? true,
    reopenResolved: input.reopenResolved ?? true,
    startPending: input.startPending ?? false,
    ignoreGroups: input.ignoreGroups ?? false,
    lastError: null,
    lastErrorAt: null,
    updatedAt: now,
  }
  ctx.db.transaction(
    (tx) => {
      if (existing) {
        const previousUrl = tx
          .select({ url: webhookSubscriptions.url })
          .from(webhookSubscriptions)
          .where(eq(webhookSubscriptions.id, existing.subscriptionId))
          .get()?.url
        if (previousUrl !== input.url || existing.accountId !== input.accountId || existing.inboxId !== inbox.id)
          forgetMappings(tx, session.id)
        tx.update(webhookSubscriptions)
          .set({ url: input.url, updatedAt: now })
          .where(eq(webhookSubscriptions.id, existing.subscriptionId))
          .run()
        tx.update(chatwootConfigs).set(settings).where(eq(chatwootConfigs.sessionId, session.id)).run()
        return
      }
      const subscriptionId = newWebhookId()
      tx.insert(webhookSubscriptions)
        .values({
          id: subscriptionId,
          kind: 'chatwoot',
          workspaceId: session.workspaceId,
          sessionId: session.id,
          url: input.url,
          messages: true,
          events: CHATWOOT_EVENTS,
          description: 'Chatwoot',
          secret: newWebhookSecret(), // never used: a sink signs nothing
          previousSecret: null,
          previousSecretExpiresAt: null,
          createdAt: now,
          updatedAt: now,
        })
        .run()
      tx.insert(chatwootConfigs)
        .values({ sessionId: session.id, subscriptionId, ...settings, createdAt: now })
        .run()
    },
    { behavior: 'immediate' },
  )
  ctx.logger.info({ sessionId: session.id, inboxId: inbox.id }, existing ? 'chatwoot updated' : 'chatwoot enabled')
  return chatwootView(ctx, args.workspaceId, session.id)
}

/** Chatwoot's refusal as the client's mistake (token, account) or as Chatwoot's trouble (502/504). */
function asRequestError(error: unknown): GatewayError {
  if (!(error instanceof ChatwootError)) throw error
  if (error.status === 401 || error.status === 403)
    return validationError(
      [{ path: 'apiToken', message: `Chatwoot refused it for this account (${error.status})` }],
      'Chatwoot refused the apiToken for this account',
    )
  if (error.status === 404) return validationError([{ path: 'accountId', message: 'Chatwoot has no such account' }])
  if (error.message.startsWith('no answer within'))
    return new GatewayError('upstream_timeout', `Chatwoot: ${error.message}`)
  return new GatewayError('upstream_error', `Chatwoot could not be used: ${error.message}`)
}
