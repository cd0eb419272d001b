import { createHmac, timingSafeEqual } from 'node:crypto'
import type { ChatwootConfig } from '../../db/schema'
import type { GatewayContext } from '../context'
import { gatewaySecret } from '../media/secret'
import { type ChatwootClient, chatwootClient } from './client'

/** The gateway secret the callback URLs' tokens derive from (gateway_secrets). */
const CALLBACK_SECRET = 'chatwoot-callback'

/** Chatwoot is an address the operator lets the gateway reach like a webhook (same switches, same timeout). */
export const chatwootNetwork = (ctx: GatewayContext) => ({
  allowHttp: ctx.config.webhookAllowHttp,
  allowPrivateAddresses: ctx.config.allowPrivateAddresses,
  timeoutMs: ctx.config.webhooks.timeoutMs,
  resolver: ctx.resolver,
})

export const clientFor = (
  ctx: GatewayContext,
  config: ChatwootConfig,
  url: string,
  signal?: AbortSignal,
): ChatwootClient =>
  chatwootClient({ url, accountId: config.accountId, apiToken: config.apiToken }, chatwootNetwork(ctx), signal)

/**
 * The token in a session's callback URL: derived from the gateway's secret and the session
 * (not stored, the same at every PUT, so an inbox keeps its webhook_url), checked in constant time.
 */
function callbackToken(ctx: GatewayContext, sessionId: string): Buffer {
  return createHmac('sha256', gatewaySecret(ctx, CALLBACK_SECRET)).update(`chatwoot:${sessionId}`).digest()
}

/** Where Chatwoot POSTs its inbox's events: under PUBLIC_URL, with the session's token. */
export const callbackUrl = (ctx: GatewayContext, sessionId: string) =>
  `${ctx.config.publicUrl}/v1/chatwoot/${encodeURIComponent(sessionId)}/callback/${callbackToken(ctx, sessionId).toString('base64url')}`

export function isCallbackToken(ctx: GatewayContext, sessionId: string, token: string): boolean {
  const expected = callbackToken(ctx, sessionId)
  const given = Buffer.from(token, 'base64url')
  return given.length === expected.length && timingSafeEqual(given, expected)
}
