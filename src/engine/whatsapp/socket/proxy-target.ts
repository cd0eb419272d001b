import type { Agent } from 'node:https'
import { isIP } from 'node:net'
import { HttpsProxyAgent } from 'https-proxy-agent'
import { SocksProxyAgent } from 'socks-proxy-agent'
import { checkProxyHost, type ProxyGuard } from '../../../net/proxy-guard'
import { parseProxyUrl, type ProxyEndpoint } from '../../../net/proxy-url'
import type { NetworkTarget, WhatsAppEndpoint } from './network-target'
import type { CloseCause, ProxySetting } from '../port'

/** A proxy that cannot be used for this connection, before anything was sent through it. */
export class ProxyTargetError extends Error {
  override readonly name = 'ProxyTargetError'
  constructor(
    readonly closeCause: Extract<CloseCause, 'proxy_unreachable' | 'proxy_forbidden'>,
    message: string,
  ) {
    super(message)
  }
}

/** How long reaching the proxy and its tunnel may take (the WebSocket has its own connect timeout too). */
const PROXY_CONNECT_TIMEOUT_MS = 20_000

/**
 * The address a workspace's proxy is reached at for this connection: resolved once here,
 * checked by the one proxy policy, and then used literally (no second lookup DNS could answer
 * differently).
 */
async function pinnedAddress(proxy: ProxyEndpoint, guard: ProxyGuard): Promise<string> {
  const check = await checkProxyHost(proxy.host, guard)
  if (check.verdict === 'allowed') return check.addresses[0]!
  throw new ProxyTargetError(check.verdict === 'refused' ? 'proxy_forbidden' : 'proxy_unreachable', check.detail)
}

const withHost = (raw: string, address: string) => {
  const url = new URL(raw)
  url.hostname = isIP(address) === 6 ? `[${address}]` : address
  return url.href
}

/**
 * https-proxy-agent sets up the TLS to the target from the request's options only, not the
 * agent's: the simulator's media CA is added to each request's here.
 */
class TrustingHttpsProxyAgent extends HttpsProxyAgent<string> {
  constructor(
    url: string,
    options: ConstructorParameters<typeof HttpsProxyAgent<string>>[1],
    private readonly ca: string,
  ) {
    super(url, options)
  }

  override connect(
    request: Parameters<HttpsProxyAgent<string>['connect']>[0],
    options: Parameters<HttpsProxyAgent<string>['connect']>[1],
  ) {
    return super.connect(request, { ...options, ca: this.ca } as typeof options)
  }
}

/**
 * The target of one connection of a proxied session: the WebSocket and media uploads and
 * downloads (node:https agents) all through the proxy, trusting the simulator's media CA
 * where there is one. Credentials travel in the agents, never in a log line.
 */
export async function proxiedTarget(
  endpoint: WhatsAppEndpoint,
  setting: ProxySetting,
  guard: ProxyGuard,
): Promise<NetworkTarget> {
  const proxy = parseProxyUrl(setting.url)
  const address = setting.checked ? await pinnedAddress(proxy, guard) : proxy.host
  const ca = endpoint.mediaCaPem
  const tls = ca ? { ca } : {}
  let agent: Agent
  let fetchAgent: Agent
  if (proxy.scheme === 'socks5:') {
    const url = withHost(setting.url, address)
    const options = { timeout: PROXY_CONNECT_TIMEOUT_MS }
    agent = new SocksProxyAgent(url, options) as unknown as Agent
    fetchAgent = new SocksProxyAgent(url, { ...options, ...tls }) as unknown as Agent
  } else {
    // An https:// proxy keeps its name for TLS (SNI and the certificate); the TCP connection
    // goes to the pinned address through `lookup`.
    const https = proxy.scheme === 'https:'
    const url = https ? setting.url : withHost(setting.url, address)
    const lookup = https
      ? (_host: string, _options: unknown, done: (error: null, address: string, family: number) => void) =>
          done(null, address, isIP(address))
      : undefined
    const options = { keepAlive: false, timeout: PROXY_CONNECT_TIMEOUT_MS, ...(lookup ? { lookup } : {}) }
    agent = new HttpsProxyAgent(url, options) as unknown as Agent
    fetchAgent = (ca
      ? new TrustingHttpsProxyAgent(url, options, ca)
      : new HttpsProxyAgent(url, options)) as unknown as Agent
  }
  return { waWebSocketUrl: endpoint.waWebSocketUrl, agent, fetchAgent }
}
