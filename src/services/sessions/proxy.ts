import type { Session } from '../../db/schema'
import type { ProxySetting } from '../../engine/whatsapp/types'
import { maskProxyUrl, proxyHostProblem } from '../../net/proxy-url'
import type { GatewayContext, ServiceContext } from '../context'
import { validationError } from '../validation-error'

/**
 * The proxy a session's connections go through: its own, else the operator's PROXY_URL, else
 * none. A workspace's proxy is checked again (resolved and pinned) before each connection; the
 * operator's is trusted as configured.
 */
export function sessionProxy(ctx: ServiceContext, session: Pick<Session, 'proxyUrl'>): ProxySetting | undefined {
  if (session.proxyUrl) return { url: session.proxyUrl, checked: true }
  return ctx.config.proxyUrl ? { url: ctx.config.proxyUrl, checked: false } : undefined
}

/**
 * A workspace's proxy URL as it may be stored: its shape, and a host that is not loopback,
 * link-local or reserved (private ranges are a proxy's usual home) unless ALLOW_PRIVATE_ADDRESSES.
 */
export async function assertProxyUrl(ctx: GatewayContext, url: string): Promise<void> {
  const problem = await proxyHostProblem(url, ctx.resolver, ctx.config.allowPrivateAddresses)
  if (problem) throw validationError([{ path: 'proxyUrl', message: problem }])
}

/** The session's own proxy as the API answers it: the password masked. */
export const proxyView = (proxyUrl: string | null) => (proxyUrl ? maskProxyUrl(proxyUrl) : null)
