import http from 'node:http'
import https from 'node:https'
import { pinnedLookup } from './fetch-hop'
import { defaultResolver, type HostResolver } from './host-resolver'
import { type AddressPolicy, pinnedAddress } from './pinned-address'
import { readLimited } from './read-limited'

export interface GuardedRequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  headers?: Record<string, string>
  body?: Uint8Array
  signal: AbortSignal
  /** Answers longer than this are cut off (an error). */
  maxBytes: number
  policy: AddressPolicy & { allowHttp: boolean }
  resolver?: HostResolver
}

export interface GuardedAnswer {
  status: number
  contentType: string | undefined
  body: Uint8Array
}

export class AnswerTooLarge extends Error {
  override readonly name = 'AnswerTooLarge'
}

/**
 * One request to an API the operator configured (Chatwoot): the URL's name resolved once and
 * every answer checked like a webhook's (private addresses only with the operator's switch),
 * the socket pinned to the checked address, no redirect followed, the answer bounded.
 */
export async function guardedRequest(url: URL, options: GuardedRequestOptions): Promise<GuardedAnswer> {
  const schemes = options.policy.allowHttp ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol)) throw new Error(`the URL must use ${schemes.join(' or ')}`)
  const pinned = await pinnedAddress(url, options.policy, options.resolver ?? defaultResolver)
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: options.method,
      agent: false,
      lookup: pinnedLookup(pinned),
      signal: options.signal,
      headers: {
        'user-agent': 'wa-session-gateway',
        ...options.headers,
        ...(options.body ? { 'content-length': String(options.body.byteLength) } : {}),
      },
    })
    request.once('response', (response) => {
      readLimited(response, options.maxBytes, () => new AnswerTooLarge(`answer over ${options.maxBytes} bytes`)).then(
        (body) => resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'], body }),
        reject,
      )
    })
    request.once('error', reject)
    request.end(options.body)
  })
}
