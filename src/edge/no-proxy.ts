/**
 * Stand-in for undici and the proxy agents in the Worker bundle (wrangler [alias]): workerd has
 * neither undici nor custom agents (undici's bundle also needs node:sqlite, which it lacks), and
 * the edge refuses a proxyUrl. An undici Agent is inert here: a Worker's fetch takes no
 * dispatcher (the simulator's CA reaches workerd through NODE_EXTRA_CA_CERTS, see dev-edge.mjs).
 */
/** A class to extend or construct (proxy-target.ts does both), failing when constructed. */
const unavailable = (what: string) =>
  class Unavailable {
    constructor() {
      throw new Error(`${what} does not run on the edge: a session there connects without a proxy`)
    }
  }

export class Agent {
  async close(): Promise<void> {}
}

export const ProxyAgent = unavailable('an HTTP proxy (undici ProxyAgent)')
export const HttpsProxyAgent = unavailable('an HTTP proxy (https-proxy-agent)')
export const SocksProxyAgent = unavailable('a SOCKS proxy (socks-proxy-agent)')
export const SocksClient = {
  createConnection: () => new (unavailable('a SOCKS proxy (socks)'))(),
}
export default { Agent, ProxyAgent }
