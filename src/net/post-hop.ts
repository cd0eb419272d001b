import http from 'node:http'
import https from 'node:https'
import type { ResolvedAddress } from './host-resolver'
import { pinnedLookup } from './fetch-hop'

export interface PostResult {
  statusCode: number
}

/**
 * One HTTP POST to an address checked beforehand (as fetchHop: the host name stays in the
 * Host header and TLS, only the socket's lookup answers the pinned address). The agent must
 * be one that only ever connects to `pinned` (see PinnedAgents), so a kept-alive socket is
 * always a socket to the checked address. The answer's body is read and dropped.
 */
export function postHop(
  url: URL,
  pinned: ResolvedAddress,
  request: { headers: Record<string, string>; body: string; agent: http.Agent; signal: AbortSignal },
): Promise<PostResult> {
  const client = url.protocol === 'https:' ? https : http
  const body = Buffer.from(request.body)
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'POST',
      agent: request.agent,
      lookup: pinnedLookup(pinned),
      signal: request.signal,
      headers: { ...request.headers, 'content-length': String(body.byteLength) },
    })
    req.once('response', (response) => {
      response.once('error', reject)
      response.once('end', () => resolve({ statusCode: response.statusCode ?? 0 }))
      response.resume()
    })
    req.once('error', reject)
    req.end(body)
  })
}

/**
 * Keep-alive agents, one per (origin, pinned address): a pooled socket is reused only for
 * the same checked address. Destroyed together when the owner stops.
 */
export class PinnedAgents {
  readonly #agents = new Map<string, http.Agent>()

  constructor(private readonly maxSockets: number) {}

  for(url: URL, pinned: ResolvedAddress): http.Agent {
    const key = `${url.protocol}//${url.host}|${pinned.address}`
    let agent = this.#agents.get(key)
    if (!agent) {
      const options = { keepAlive: true, maxSockets: this.maxSockets, maxFreeSockets: this.maxSockets, timeout: 30_000 }
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options)
      if (this.#agents.size >= 1_000) this.destroyAll() // many endpoints come and go: start over
      this.#agents.set(key, agent)
    }
    return agent
  }

  destroyAll(): void {
    for (const agent of this.#agents.values()) agent.destroy()
    this.#agents.clear()
  }
}
