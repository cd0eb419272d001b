import { GatewayError } from '../../errors'
import type { FetchedBody } from '../fetcher'
import { firstUrl } from './first-url'
import { readPageMeta } from './page-meta'

/** What a text's link preview shows; the thumbnail a small JPEG. */
export interface LinkPreview {
  /** The URL as written in the text. */
  matchedText: string
  /** The page after redirects. */
  canonicalUrl: string
  title: string
  description?: string
  jpegThumbnail?: Uint8Array
}

/** A preview, or why there is none (the text then goes without one). */
export type LinkPreviewOutcome = { preview: LinkPreview } | { preview: null; reason: string }

/** Fetches a URL through the guarded fetcher within these limits. */
export type LimitedFetch = (url: string, limits: { maxBytes: number; timeoutMs: number }) => Promise<FetchedBody>

export interface LinkPreviewerParts {
  /** The page: answers at most maxBytes (the start of a longer page, cut there). */
  fetchPage: LimitedFetch
  /** The picture: refuses one over maxBytes. */
  fetchImage: LimitedFetch
  /** A small JPEG of a picture; throws when it is no whole picture. */
  thumbnail(bytes: Uint8Array): Promise<Uint8Array>
  limits?: Partial<LinkPreviewLimits>
}

export interface LinkPreviewLimits {
  /** Of the whole preview, page, picture and thumbnail: a slow site never holds a send longer. */
  timeoutMs: number
  /** Read of the page: its <head> is near the start; the rest is not read. */
  pageBytes: number
  /** A picture larger than this gets a preview without a thumbnail. */
  imageBytes: number
}

export const LINK_PREVIEW_LIMITS: LinkPreviewLimits = {
  timeoutMs: 3_000,
  pageBytes: 256 * 1024,
  imageBytes: 5 * 1024 * 1024,
}

export interface LinkPreviewer {
  /** The preview of the first URL in a text; undefined when it has none. Never throws. */
  preview(text: string): Promise<LinkPreviewOutcome | undefined>
}

const HTML_TYPES = /^\s*(text\/html|application\/xhtml\+xml)\b/i

export function createLinkPreviewer(parts: LinkPreviewerParts): LinkPreviewer {
  const limits = { ...LINK_PREVIEW_LIMITS, ...parts.limits }

  async function make(matchedText: string, url: string, deadline: number): Promise<LinkPreviewOutcome> {
    const left = () => Math.max(1, deadline - Date.now())
    const page = await parts.fetchPage(url, { maxBytes: limits.pageBytes, timeoutMs: left() })
    if (page.contentTypeHeader && !HTML_TYPES.test(page.contentTypeHeader))
      return { preview: null, reason: `the URL is not a page (${page.contentTypeHeader.split(';')[0]!.trim()})` }
    const meta = readPageMeta(decode(page), page.finalUrl)
    if (!meta.title) return { preview: null, reason: 'the page has no title' }
    const preview: LinkPreview = {
      matchedText,
      canonicalUrl: page.finalUrl,
      title: meta.title,
      ...(meta.description ? { description: meta.description } : {}),
    }
    if (meta.image) {
      // Without its picture a preview is still worth sending: any failure here only drops it.
      const thumbnail = await parts
        .fetchImage(meta.image, { maxBytes: limits.imageBytes, timeoutMs: left() })
        .then((image) => parts.thumbnail(image.bytes))
        .catch(() => undefined)
      if (thumbnail) preview.jpegThumbnail = thumbnail
    }
    return { preview }
  }

  return {
    async preview(text) {
      const found = firstUrl(text)
      if (!found) return undefined
      const deadline = Date.now() + limits.timeoutMs
      let timer: ReturnType<typeof setTimeout> | undefined
      const late = new Promise<LinkPreviewOutcome>((resolve) => {
        timer = setTimeout(
          () => resolve({ preview: null, reason: `no preview within ${limits.timeoutMs} ms` }),
          limits.timeoutMs,
        )
      })
      try {
        return await Promise.race([make(found.matchedText, found.url, deadline), late])
      } catch (error) {
        return { preview: null, reason: error instanceof GatewayError ? error.message : 'the page could not be read' }
      } finally {
        clearTimeout(timer)
      }
    },
  }
}

/**
 * The page's text in the charset its Content-Type names, else the one a <meta> in its first
 * 1024 bytes names (as browsers look for it), else UTF-8; invalid bytes replaced.
 */
function decode(page: FetchedBody): string {
  const charset =
    CHARSET_IN_HEADER.exec(page.contentTypeHeader ?? '')?.[1] ??
    CHARSET_IN_META.exec(new TextDecoder('latin1').decode(page.bytes.subarray(0, 1024)))?.[1]
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(page.bytes)
  } catch {
    return new TextDecoder('utf-8').decode(page.bytes)
  }
}

const CHARSET_IN_HEADER = /charset\s*=\s*"?([\w-]+)/i
const CHARSET_IN_META = /<meta[^>]{0,200}?charset\s*=\s*["']?([\w-]+)/i
