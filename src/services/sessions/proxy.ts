import type { Session } from '../../db/schema'
import type { ProxySetting } from '../../engine/whatsapp/port'
import { proxyUrlHostProblem } from '../../net/proxy-guard'
import { maskProxyUrl } from '../../net/proxy-url'
import type { GatewayContext, ServiceContext } from '../context'
import { validationError } from '../validation-error'

/**
 * The proxy a session's connections go through: its own, else the operator's PROXY_URL, else
 * none. A workspace's proxy is checked again (resolved and pinned) before each connection; the
 * operator's is trusted as configured.
 */
export function sessionProxy(ctx: ServiceContext, session: Pick<Session, 'proxyUrl'>): ProxySetting | undefined {
  if (!ctx.config.sessionProxies) return undefined
  if (session.proxyUrl) return { url: session.proxyUrl, checked: true }
  return ctx.config.proxyUrl ? { url: ctx.config.proxyUrl, checked: false } : undefined
}

/**
 * A workspace's proxy URL as it may be stored: its shape, and a host the proxy policy allows
 * (public, or what the operator opened: src/net/proxy-address-policy.ts); none at all where
 * sessions cannot have proxies (the edge), rather than stored and ignored.
 */
export async function assertProxyUrl(ctx: GatewayContext, url: string): Promise<void> {
  if (!ctx.config.sessionProxies) {
    throw validationError([
      {
        path: 'proxyUrl',
        message:
          'cannot be used on this deployment: on the Cloudflare edge a session’s WebSocket and fetches go through Cloudflare’s network and take no proxy; nothing was changed',
      },
    ])
  }
  const problem = await proxyUrlHostProblem(url, ctx.proxyGuard)
  if (problem) throw validationError([{ path: 'proxyUrl', message: problem }])
}

/** The session's own proxy as the API answers it: the password masked. */
export const proxyView = (proxyUrl: string | null) => (proxyUrl ? maskProxyUrl(proxyUrl) : null)
