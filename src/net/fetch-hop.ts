import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import type { ResolvedAddress } from './host-resolver'

/**
 * One HTTP GET connected to an address checked beforehand. The URL's host name stays in
 * the request (Host header, TLS SNI and certificate check); only the socket's DNS lookup
 * is answered with the pinned address, so no second resolution can rebind the name.
 *
 * Why not `request-filtering-agent`: it checks inside the agent's lookup (also pinned), but
 * resolves through dns.lookup itself, so the injectable resolver and the "nothing resolves
 * twice" guarantee would both need this wrapper anyway; redirects and limits are ours too.
 */
export function fetchHop(url: URL, pinned: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'GET',
      agent: false, // a fresh socket per hop: a pooled one could belong to another address
      lookup: pinnedLookup(pinned),
      signal,
      headers: { accept: '*/*', 'accept-encoding': 'identity', 'user-agent': 'wa-session-gateway' },
    })
    request.once('response', resolve)
    request.once('error', reject)
    request.end()
  })
}

/** A dns.lookup stand-in that only ever answers the checked address (both call shapes). */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    const done = callback as (...args: unknown[]) => void
    if (options.all) done(null, [{ address: pinned.address, family: pinned.family }])
    else done(null, pinned.address, pinned.family)
  }
}
