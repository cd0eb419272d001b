/**
 * Stand-in for the proxy agents in the Worker bundle (wrangler [alias]): workerd has no custom
 * agents, and the edge refuses a proxyUrl.
 */
/** A class to extend or construct (proxy-target.ts does both), failing when constructed. */
const unavailable = (what: string) =>
  class Unavailable {
    constructor() {
      throw new Error(`${what} does not run on the edge: a session there connects without a proxy`)
    }
  }

export const HttpsProxyAgent = unavailable('an HTTP proxy (https-proxy-agent)')
export const SocksProxyAgent = unavailable('a SOCKS proxy (socks-proxy-agent)')
