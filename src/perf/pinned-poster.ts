import type { Pool } from 'undici'
import { isBun } from '../runtime/detect'
import { pinnedLookup } from '../net/fetch-hop'
import type { ResolvedAddress } from '../net/host-resolver'
import { PinnedAgents, type PostResult, postHop } from '../net/post-hop'

/**
 * POSTs to addresses checked beforehand, over kept-alive connections that only ever reach the
 * address they were opened for (pooled per origin and pinned address). The answer's body is read
 * and dropped. Redirects are not followed.
 */
export interface PinnedPoster {
  /** Which HTTP client it posts with. */
  readonly client: 'undici' | 'node:http'
  post(
    url: URL,
    pinned: ResolvedAddress,
    request: { headers: Record<string, string>; body: string; signal: AbortSignal },
  ): Promise<PostResult>
  close(): void
}

/**
 * undici's pools on Node, node:http's agents on Bun. An optimisation (bench: webhooks from a full
 * outbox, and inbound msg/s, whose every message is a delivery): undici's client spent ~55 µs of
 * CPU a kept-alive POST where node:http spent ~125. Bun's `undici` is a shim without pools, and
 * Bun's node:http is its own. undici loads at the first POST: it is a large package, and a
 * gateway without webhooks never needs it (bench: cold start).
 */
export function pinnedPoster(connectionsPerOrigin: number): PinnedPoster {
  return isBun() ? agentPoster(connectionsPerOrigin) : poolPoster(connectionsPerOrigin)
}

function agentPoster(maxSockets: number): PinnedPoster {
  const agents = new PinnedAgents(maxSockets)
  return {
    client: 'node:http',
    post: (url, pinned, request) => postHop(url, pinned, { ...request, agent: agents.for(url, pinned) }),
    close: () => agents.destroyAll(),
  }
}

function poolPoster(connections: number): PinnedPoster {
  const pools = new Map<string, Pool>()
  let undici: Promise<typeof import('undici')> | undefined
  let closed = false
  const closeAll = () => {
    for (const pool of pools.values()) void pool.destroy().catch(() => {})
    pools.clear()
  }
  return {
    client: 'undici',
    async post(url, pinned, { headers, body, signal }) {
      if (!undici) undici = import('undici')
      const { Pool } = await undici
      if (closed) throw Object.assign(new Error('the poster is closed'), { code: 'CLOSED' })
      const key = `${url.origin}|${pinned.address}`
      let pool = pools.get(key)
      if (!pool) {
        if (pools.size >= 1_000) closeAll() // many endpoints come and go: start over
        pool = new Pool(url.origin, { connections, connect: { lookup: pinnedLookup(pinned) } })
        pools.set(key, pool)
      }
      const response = await pool.request({
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        headers,
        body,
        signal,
      })
      // Read and dropped; past 64 KiB the connection is closed rather than read further.
      await response.body.dump({ limit: 64 * 1024 })
      return { statusCode: response.statusCode }
    },
    close() {
      closed = true
      closeAll()
    },
  }
}
