import https from 'node:https'
import { Readable } from 'node:stream'
import { pinnedLookup } from '../../../net/fetch-hop'
import type { HostResolver } from '../../../net/host-resolver'
import { pinnedAddress } from '../../../net/pinned-address'
import type { NetworkTarget } from '../socket/network-target'

/** What a download needs of the media host's answer. */
export interface MediaResponse {
  status: number
  /** Content-Length as the host declared it; NaN when it did not. */
  declaredLength: number
  body: ReadableStream<Uint8Array> | null
}

/** One GET of a file on a media host mediaDownloadUrl allowed; never follows a redirect. */
export type MediaFetch = (
  url: URL,
  init: { signal: AbortSignal; headers: Record<string, string> },
) => Promise<MediaResponse>

/** The address guard of every fetch (src/net), as media downloads apply it. */
export interface MediaAddressGuard {
  resolver: HostResolver
  /** The operator's ALLOW_PRIVATE_ADDRESSES. */
  allowPrivateAddresses: boolean
  /** host:port of media hosts that may be on a private address (the simulator's; see network-target.ts). */
  privateHosts: readonly string[]
}

/** The address to connect to, checked as every other fetch's is (a private answer is refused). */
const checkedAddress = (url: URL, guard: MediaAddressGuard) =>
  pinnedAddress(
    url,
    { allowPrivateAddresses: guard.allowPrivateAddresses || guard.privateHosts.includes(url.host) },
    guard.resolver,
  )

/**
 * Node and Bun, no proxy: node:https to the address checked beforehand (the host name stays in
 * the Host header, SNI and the certificate check; only the socket's lookup is answered with
 * the pinned address, as fetchHop does), trusting `ca` instead of the public roots when given
 * (the simulator's). node:https follows no redirect.
 */
export function pinnedMediaFetch(guard: MediaAddressGuard, ca: string | undefined): MediaFetch {
  return async (url, init) => {
    const pinned = await checkedAddress(url, guard)
    // a fresh socket: a pooled one could belong to another address
    return httpsGet(url, init, { agent: false, lookup: pinnedLookup(pinned), ...(ca ? { ca } : {}) })
  }
}

/**
 * Through the session's proxy: node:https over the proxy's agent (the one media uploads use,
 * trusting the simulator's CA where there is one), so Node and Bun both go through it (Bun's
 * fetch ignores an undici dispatcher and would go straight out). The proxy connects, so the
 * connection cannot be pinned here; the name is still checked to resolve to public addresses
 * only, and the host allow-list holds. node:https follows no redirect.
 */
export function proxiedMediaFetch(guard: MediaAddressGuard, target: NetworkTarget): MediaFetch {
  return async (url, init) => {
    await checkedAddress(url, guard)
    return httpsGet(url, init, { agent: target.fetchAgent })
  }
}

/** One GET with node:https, its body as a web stream; `route` says how the socket is made. */
function httpsGet(
  url: URL,
  init: Parameters<MediaFetch>[1],
  route: Pick<https.RequestOptions, 'agent' | 'lookup' | 'ca'>,
): Promise<MediaResponse> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, {
      method: 'GET',
      ...route,
      signal: init.signal,
      headers: { ...init.headers, 'accept-encoding': 'identity' },
    })
    request.once('response', (response) =>
      resolve({
        status: response.statusCode ?? 0,
        declaredLength: Number(response.headers['content-length'] ?? Number.NaN),
        body: Readable.toWeb(response) as ReadableStream<Uint8Array>,
      }),
    )
    request.once('error', reject)
    request.end()
  })
}

/**
 * workerd: its fetch has no hook to pin an address, and needs none: Cloudflare refuses private,
 * loopback and link-local addresses itself (src/edge/network.ts). Redirects are answered, never followed.
 */
export const platformMediaFetch: MediaFetch = async (url, init) =>
  fromResponse(await fetch(url, { ...init, redirect: 'manual' }))

const fromResponse = (response: Response): MediaResponse => ({
  status: response.status,
  declaredLength: Number(response.headers.get('content-length') ?? Number.NaN),
  body: response.body,
})
