import { describe, expect, it, vi } from 'vitest'
import { GatewayError } from '../../../src/errors'
import type { FetchedBody } from '../../../src/media/fetcher'
import { createLinkPreviewer, type LimitedFetch } from '../../../src/media/link-preview/previewer'

const page = (html: string | Uint8Array, contentTypeHeader?: string, finalUrl = 'https://a.test/p'): FetchedBody => ({
  bytes: typeof html === 'string' ? new TextEncoder().encode(html) : html,
  finalUrl,
  contentTypeHeader,
})
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xd9])

/** The previewer's own decisions, with the fetches and the thumbnail as stand-ins (the guarded path is tested end to end). */
describe('createLinkPreviewer', () => {
  const make = (fetchPage: LimitedFetch, fetchImage: LimitedFetch = vi.fn(), thumbnail = vi.fn(async () => JPEG)) =>
    createLinkPreviewer({ fetchPage, fetchImage, thumbnail, limits: { timeoutMs: 200 } })

  it('answers nothing for a text without a URL, and fetches nothing', async () => {
    const fetchPage = vi.fn<LimitedFetch>()
    expect(await make(fetchPage).preview('no link')).toBeUndefined()
    expect(fetchPage).not.toHaveBeenCalled()
  })

  it('asks for the page within its caps and the picture named by the page, relative to where it ended', async () => {
    const fetchPage = vi.fn<LimitedFetch>(async () =>
      page(
        '<meta property="og:title" content="T"><meta property="og:image" content="img.png">',
        'text/html',
        'https://b.test/dir/',
      ),
    )
    const fetchImage = vi.fn<LimitedFetch>(async () => page('png'))
    const outcome = await make(fetchPage, fetchImage).preview('go https://a.test/p')
    expect(fetchPage).toHaveBeenCalledWith('https://a.test/p', { maxBytes: 256 * 1024, timeoutMs: expect.any(Number) })
    expect(fetchImage).toHaveBeenCalledWith('https://b.test/dir/img.png', {
      maxBytes: 5 * 1024 * 1024,
      timeoutMs: expect.any(Number),
    })
    expect(outcome).toEqual({
      preview: {
        matchedText: 'https://a.test/p',
        canonicalUrl: 'https://b.test/dir/',
        title: 'T',
        jpegThumbnail: JPEG,
      },
    })
  })

  it('reads the charset from the header, else from a <meta> near the start', async () => {
    const latin1 = (html: string) => new Uint8Array(Buffer.from(html, 'latin1'))
    const viaHeader = make(async () => page(latin1('<title>Caf\u00e9</title>'), 'text/html; charset=ISO-8859-1'))
    expect(await viaHeader.preview('https://a.test/')).toMatchObject({ preview: { title: 'Café' } })
    const viaMeta = make(async () => page(latin1('<meta charset="windows-1252"><title>Caf\u00e9</title>'), 'text/html'))
    expect(await viaMeta.preview('https://a.test/')).toMatchObject({ preview: { title: 'Café' } })
  })

  it('says why there is none: not a page, no title, a refused fetch, too slow', async () => {
    expect(await make(async () => page('%PDF', 'application/pdf')).preview('https://a.test/')).toEqual({
      preview: null,
      reason: 'the URL is not a page (application/pdf)',
    })
    expect(await make(async () => page('<p>hi</p>', 'text/html')).preview('https://a.test/')).toEqual({
      preview: null,
      reason: 'the page has no title',
    })
    const refused = make(async () => {
      throw new GatewayError('media_unavailable', 'The media URL could not be fetched: refused')
    })
    expect(await refused.preview('https://a.test/')).toEqual({
      preview: null,
      reason: 'The media URL could not be fetched: refused',
    })
    const never = make(() => new Promise<FetchedBody>(() => {}))
    expect(await never.preview('https://a.test/')).toEqual({ preview: null, reason: 'no preview within 200 ms' })
  })

  it('keeps the preview without its picture when the picture or its thumbnail fails', async () => {
    const html = page('<meta property="og:title" content="T"><meta property="og:image" content="/i">', 'text/html')
    const noImage = make(
      async () => html,
      async () => {
        throw new GatewayError('payload_too_large', 'too large')
      },
    )
    expect(await noImage.preview('https://a.test/')).toEqual({
      preview: { matchedText: 'https://a.test/', canonicalUrl: 'https://a.test/p', title: 'T' },
    })
    const badThumbnail = make(
      async () => html,
      async () => page('x'),
      vi.fn(async () => {
        throw new Error('not a picture')
      }),
    )
    expect((await badThumbnail.preview('https://a.test/'))?.preview?.jpegThumbnail).toBeUndefined()
  })
})
