import { defaultResolver, type HostResolver } from '../net/host-resolver'
import { requestSignal } from '../net/request-signal'
import { AddressRefused, pinnedAddress } from '../net/pinned-address'
import { pinnedPoster } from '../perf/pinned-poster'
import { networkReason } from '../net/network-reason'

export interface WebhookRequest {
  url: string
  headers: Record<string, string>
  body: string
}

/** How one POST went: `statusCode` when the endpoint answered, `error` (short, secret-free) otherwise. */
export type WebhookResponse =
  | { delivered: true; statusCode: number }
  | { delivered: false; statusCode: number | null; error: string }

/**
 * Where an integration's stream goes instead of a signed POST (a Chatwoot inbox): it gets each
 * event in order, one at a time, and answers as a webhook would (`delivered`, or an error that
 * the dispatcher retries with the same backoff for the same day).
 */
export interface EventSink {
  deliver(
    event: { sessionId: string; webhookId: string; eventId: string; type: string; body: string },
    signal: AbortSignal,
  ): Promise<WebhookResponse>
}

/** The webhook endpoint as the dispatcher sees it: one signed POST at a time. */
export interface WebhookSender {
  post(request: WebhookRequest, signal: AbortSignal): Promise<WebhookResponse>
  close(): void
}

export interface WebhookSenderOptions {
  allowHttp: boolean
  allowPrivateAddresses: boolean
  timeoutMs: number
  endpointConcurrency: number
  resolver?: HostResolver
}

/**
 * POSTs over the guarded network path: at every delivery the URL's name is resolved, every
 * answer checked (private, loopback, link-local refused unless the operator allows them) and
 * the connection pinned to the checked address. Redirects are not followed (a 3xx is a failure).
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const resolver = options.resolver ?? defaultResolver
  const poster = pinnedPoster(options.endpointConcurrency)
  const schemes = options.allowHttp ? ['https:', 'http:'] : ['https:']

  return {
    async post(request, stop) {
      let url: URL
      try {
        url = new URL(request.url)
      } catch {
        return { delivered: false, statusCode: null, error: 'not an absolute URL' }
      }
      if (!schemes.includes(url.protocol))
        return { delivered: false, statusCode: null, error: `refused: the URL must use ${schemes.join(' or ')}` }
      const bounded = requestSignal(stop, options.timeoutMs)
      try {
        const pinned = await pinnedAddress(url, options, resolver)
        const { statusCode } = await poster.post(url, pinned, { ...request, signal: bounded.signal })
        if (statusCode >= 200 && statusCode <= 299) return { delivered: true, statusCode }
        return { delivered: false, statusCode, error: `HTTP ${statusCode}` }
      } catch (error) {
        if (error instanceof AddressRefused)
          return { delivered: false, statusCode: null, error: `refused: ${error.message}` }
        if (bounded.timedOut)
          return { delivered: false, statusCode: null, error: `no answer within ${options.timeoutMs} ms` }
        return { delivered: false, statusCode: null, error: networkReason(error) }
      } finally {
        bounded.release()
      }
    },
    close: () => poster.close(),
  }
}
