/**
 * The outside world as a Worker reaches it: plain `fetch`. The Node guarded fetcher pins every
 * connection to a checked address through node:http's `lookup`; Workers have no such hook, and
 * need none for the threat it covers: on Cloudflare, `fetch` cannot reach private, loopback or
 * link-local addresses at all. What can be checked without DNS (scheme, literal private IPs,
 * local names) is still checked by the shared URL guard; under local `wrangler dev` nothing
 * more stands between a URL and the host's network, which is why tests opt in with the
 * operator switches (ALLOW_PRIVATE_ADDRESSES, WEBHOOK_ALLOW_HTTP).
 */
import type { GatewayConfig } from '../config'
import { requestSignal } from '../net/request-signal'
import { GatewayError } from '../errors'
import type { HostResolver } from '../net/host-resolver'
import { urlProblem } from '../net/url-guard'
import type { MediaFetcher } from '../media/fetcher'
import type { MediaConverter } from '../media/converter'
import type { MediaTools } from '../media/port'
import { createLinkPreviewer, type LimitedFetch } from '../media/link-preview/previewer'
import type { WebhookSender } from '../webhooks/sender'

/** Workers expose no DNS lookup; names are checked by the platform at connect time instead. */
export const edgeResolver: HostResolver = async () => []

export function createEdgeWebhookSender(options: {
  allowHttp: boolean
  allowPrivateAddresses: boolean
  timeoutMs: number
}): WebhookSender {
  return {
    async post(request, stop) {
      const problem = urlProblem(request.url, options)
      if (problem) return { delivered: false, statusCode: null, error: `refused: the URL ${problem}` }
      const bounded = requestSignal(stop, options.timeoutMs)
      try {
        const response = await fetch(request.url, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
          redirect: 'manual',
          signal: bounded.signal,
        })
        await response.body?.cancel()
        const statusCode = response.status
        if (statusCode >= 200 && statusCode <= 299) return { delivered: true, statusCode }
        return { delivered: false, statusCode, error: `HTTP ${statusCode}` }
      } catch (error) {
        if (bounded.timedOut)
          return { delivered: false, statusCode: null, error: `no answer within ${options.timeoutMs} ms` }
        return {
          delivered: false,
          statusCode: null,
          error: (error as Error)?.name === 'TypeError' ? 'network error' : 'fetch failed',
        }
      } finally {
        bounded.release()
      }
    },
    close: () => {},
  }
}

/** Client media URLs over fetch: the URL guard, redirects checked hop by hop, a size cap while streaming. */
export function createEdgeMediaFetcher(config: Pick<GatewayConfig, 'allowPrivateAddresses' | 'media'>): MediaFetcher {
  const policy = { allowHttp: true, allowPrivateAddresses: config.allowPrivateAddresses }
  const refuse = (message: string) => new GatewayError('media_unavailable', message)
  return {
    async fetch(url) {
      const signal = AbortSignal.timeout(config.media.timeoutMs)
      let current = url
      for (let hop = 0; hop <= 5; hop++) {
        const problem = urlProblem(current, policy)
        if (problem) throw refuse(`The media URL ${problem}`)
        const response = await fetch(current, { redirect: 'manual', signal }).catch(() => {
          throw refuse('The media URL could not be fetched')
        })
        const location = response.headers.get('location')
        if (response.status >= 300 && response.status < 400 && location) {
          current = new URL(location, current).toString()
          continue
        }
        if (!response.ok || !response.body) throw refuse(`The media URL answered HTTP ${response.status}`)
        const chunks: Uint8Array[] = []
        let size = 0
        for await (const chunk of response.body) {
          size += chunk.byteLength
          if (size > config.media.maxBytes)
            throw new GatewayError('payload_too_large', `The media is larger than ${config.media.maxBytes} bytes`)
          chunks.push(chunk)
        }
        const bytes = new Uint8Array(size)
        let offset = 0
        for (const chunk of chunks) {
          bytes.set(chunk, offset)
          offset += chunk.byteLength
        }
        return { bytes, finalUrl: current, contentTypeHeader: response.headers.get('content-type') ?? undefined }
      }
      throw refuse('The media URL redirected more than 5 times')
    },
  }
}

/**
 * Voice notes, stickers, audio probing and video (duration, thumbnail, conversion) need ffmpeg,
 * which cannot run in a Worker: they answer 422 media_unavailable saying so. Images, documents,
 * contact cards, text, location and interactive messages are unaffected.
 */
export const edgeMediaConverter: MediaConverter = {
  toVoiceNote: () => Promise.reject(unavailable('Voice notes (ptt: true)')),
  toSticker: () => Promise.reject(unavailable('Stickers')),
  probeAudio: () => Promise.reject(unavailable('Audio messages')),
  toVideo: () => Promise.reject(unavailable('Videos')),
  toProfilePicture: () =>
    Promise.reject(unavailable(`Profile photos other than square JPEGs of at most 640 px a side`)),
  // A link preview then goes without its picture (unless the page's is a small JPEG already).
  toLinkThumbnail: () => Promise.reject(unavailable('Link preview pictures other than JPEGs of at most 192 px a side')),
}

/**
 * Link previews over the edge's media fetcher: the same URL guard hop by hop, the platform's
 * own refusal of private addresses, the preview's caps (a page past its byte cap is refused
 * here rather than cut, so a very long page gets no preview on Workers).
 */
export function createEdgeLinkPreviewer(config: Pick<GatewayConfig, 'allowPrivateAddresses'>, media: MediaTools) {
  const fetchWithin: LimitedFetch = (url, limits) =>
    createEdgeMediaFetcher({
      allowPrivateAddresses: config.allowPrivateAddresses,
      media: { ...limits, maxSeconds: 0 },
    }).fetch(url)
  return createLinkPreviewer({
    fetchPage: fetchWithin,
    fetchImage: fetchWithin,
    thumbnail: (bytes) => media.linkThumbnail(bytes),
  })
}

function unavailable(what: string): GatewayError {
  return new GatewayError(
    'media_unavailable',
    `${what} need ffmpeg, which the Cloudflare Workers deployment does not have; use the Node or Bun gateway`,
    {
      runtime: 'workers',
    },
  )
}
