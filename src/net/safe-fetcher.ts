import type { IncomingMessage } from 'node:http'
import { GatewayError } from '../errors'
import { fetchHop } from './fetch-hop'
import { defaultResolver, type HostResolver } from './host-resolver'
import { AddressRefused, pinnedAddress } from './pinned-address'
import { readLimited } from './read-limited'
import { networkReason } from './network-reason'

export interface SafeFetcherOptions {
  allowPrivateAddresses: boolean
  /** Exact addresses allowed although private, e.g. an operator's internal media server. */
  allowAddresses?: readonly string[]
  /** Accept http:// as well as https:// (default true: media over http is common and the address checks still apply). */
  allowHttp?: boolean
  maxBytes: number
  /** For the whole fetch, redirects and body included. */
  timeoutMs: number
  maxRedirects?: number
  resolver?: HostResolver
  /**
   * What a body past maxBytes gets: refused (413, the default), or cut there and answered, for a
   * caller that needs only the start (a page's <head>).
   */
  overLimit?: 'refuse' | 'truncate'
}

export interface FetchedBody {
  bytes: Uint8Array
  finalUrl: string
  contentTypeHeader?: string
}

export interface SafeFetcher {
  fetch(url: string): Promise<FetchedBody>
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * The one way the gateway fetches a URL a client gave it. Every hop (the URL and each
 * redirect) is resolved once, every answer checked, and the connection pinned to the
 * checked address; the body is counted while it streams. Failures are GatewayErrors:
 * payload_too_large over the limit, media_unavailable for everything else.
 */
export function createSafeFetcher(options: SafeFetcherOptions): SafeFetcher {
  const resolver = options.resolver ?? defaultResolver
  const maxRedirects = options.maxRedirects ?? 5
  const schemes = options.allowHttp === false ? ['https:'] : ['https:', 'http:']

  async function follow(start: URL, signal: AbortSignal): Promise<FetchedBody> {
    let url = start
    for (let hop = 0; ; hop++) {
      if (!schemes.includes(url.protocol)) throw unavailable(url, `the URL must use ${schemes.join(' or ')}`)
      const pinned = await pinnedAddress(url, options, resolver)
      const response = await fetchHop(url, pinned, signal)
      const status = response.statusCode ?? 0
      const location = response.headers.location
      if (REDIRECTS.has(status) && location) {
        response.destroy()
        if (hop >= maxRedirects) throw unavailable(start, `more than ${maxRedirects} redirects`)
        url = new URL(location, url)
        continue
      }
      if (status < 200 || status > 299) {
        response.destroy()
        throw unavailable(url, `the server answered HTTP ${status}`)
      }
      return {
        bytes: await readBody(response),
        finalUrl: url.href,
        contentTypeHeader: response.headers['content-type'],
      }
    }
  }

  function readBody(response: IncomingMessage): Promise<Uint8Array> {
    if (options.overLimit === 'truncate') return readLimited(response, options.maxBytes, 'truncate')
    const declared = Number(response.headers['content-length'])
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      response.destroy()
      throw tooLarge(options.maxBytes)
    }
    return readLimited(response, options.maxBytes, () => tooLarge(options.maxBytes))
  }

  return {
    async fetch(raw) {
      let url: URL
      try {
        url = new URL(raw)
      } catch {
        throw new GatewayError('media_unavailable', 'The media URL is not an absolute URL', {})
      }
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), options.timeoutMs)
      try {
        return await follow(url, controller.signal)
      } catch (error) {
        if (error instanceof GatewayError) throw error
        if (error instanceof AddressRefused) throw unavailable(url, `refused: ${error.message}`)
        if (controller.signal.aborted) throw unavailable(url, `no complete answer within ${options.timeoutMs} ms`)
        throw unavailable(url, `the request failed (${networkReason(error)})`)
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

function tooLarge(limitBytes: number): GatewayError {
  return new GatewayError('payload_too_large', `The media is larger than ${limitBytes} bytes`, { limitBytes })
}

function unavailable(url: URL, reason: string): GatewayError {
  return new GatewayError('media_unavailable', `The media URL could not be fetched: ${reason}`, {
    url: publicPart(url),
  })
}

/** Origin and path only: query strings and user info often carry tokens. */
export function publicPart(url: URL): string {
  return `${url.origin}${url.pathname}`.slice(0, 200)
}
