import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { resolveConfig } from '../../../../src/config'
import { createGuardedLinkPreviewer } from '../../../../src/media/link-preview/guarded'
import { createMediaTools } from '../../../../src/media/media-tools'
import type { HostResolver } from '../../../../src/net/host-resolver'
import { readJpeg } from '../../../wa-sim/jpeg'
import { generate, testPicture } from '../../../support/media-fixtures'
import { type LoopbackServer, startLoopbackServer } from '../../../support/loopback-server'
import { loopbackOnlyNetwork, type NetworkGuard } from '../../../support/loopback-only-network'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550036101'
const CONTACT = '15551236101'

const MB = 1024 * 1024
const html = (head: string) => `<!doctype html><html><head>${head}</head><body><p>body</p></body></html>`

/** The test's web: pages and pictures on loopback, one slow page held open, one 50 MB page streamed. */
interface Site {
  server: LoopbackServer
  url(path: string): string
  requests: string[]
  /** Bytes of the 50 MB page written before the gateway hung up. */
  hugeWritten: number
  close(): Promise<void>
}

async function startSite(widePng: Uint8Array): Promise<Site> {
  const requests: string[] = []
  const held: ServerResponse[] = []
  const site = { requests, hugeWritten: 0 } as Site
  const pages: Record<string, string> = {
    '/good': html(
      `<meta charset="utf-8"><title>Not this one</title>
       <script>document.write('<meta property="og:title" content="From a script">')</script>
       <meta property="og:title" content="The Good Page &amp; Co">
       <meta content='All about "good" things' property=og:description>
       <meta property="og:image" content="/wide.png">`,
    ),
    '/plain': html(`<title>  Plain
       page </title><meta name="description" content="No Open Graph here">`),
    '/untitled': html('<meta name="description" content="A page with no title">'),
    '/huge-image': html(
      '<meta property="og:title" content="Huge picture"><meta property="og:image" content="/big.png">',
    ),
    '/not-image': html(
      '<meta property="og:title" content="Odd picture"><meta property="og:image" content="/notes.txt">',
    ),
  }
  const server = await startLoopbackServer((request, response) => {
    const path = request.url ?? '/'
    requests.push(path)
    if (pages[path])
      return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[path])
    if (path === '/wide.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(widePng)
    if (path === '/big.png')
      return void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(6 * MB, 1))
    if (path === '/notes.txt') return void response.writeHead(200, { 'content-type': 'image/png' }).end('just text')
    if (path === '/slow') {
      held.push(response)
      return void response.writeHead(200, { 'content-type': 'text/html' }).write('<html><head><title>Slow')
    }
    if (path === '/redirect-inside')
      return void response.writeHead(302, { location: 'http://intranet.example.test/secret' }).end()
    if (path === '/huge') return void streamHuge(response)
    response.writeHead(404).end()
  })

  /** 50 MB of HTML, the tags first, written as the reader takes it; stops when the reader hangs up. */
  function streamHuge(response: ServerResponse) {
    const chunk = Buffer.alloc(64 * 1024, 'x')
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * MB) })
    const head = Buffer.from(html('<meta property="og:title" content="Huge page">'))
    response.write(head)
    site.hugeWritten = head.length
    const pump = () => {
      while (site.hugeWritten < 50 * MB && !response.destroyed) {
        site.hugeWritten += chunk.length
        if (!response.write(chunk)) return void response.once('drain', pump)
      }
      response.end()
    }
    pump()
  }

  site.server = server
  site.url = server.url
  site.close = async () => {
    for (const response of held) response.destroy()
    await server.close()
  }
  return site
}

const isThumbnail = (bytes: Uint8Array | null | undefined) => {
  const jpeg = bytes?.length ? readJpeg(bytes) : undefined
  return !!jpeg?.ok && jpeg.width <= 192 && jpeg.height <= 192
}

/**
 * Link previews of texts through the public API, the real Baileys client and the simulator, the
 * pages on a loopback server. The previewer is the gateway's guarded one with the production
 * policy (private addresses refused) opened for that one server's address only, so the redirect
 * into a private network is refused by the guard itself.
 */
describe('link previews on texts', () => {
  let t: SimulatedGateway
  let site: Site
  let sessionId: string
  let network: NetworkGuard
  const resolver = vi.fn<HostResolver>(async (name) =>
    name === 'intranet.example.test' ? [{ address: '10.0.0.7', family: 4 }] : [],
  )

  beforeAll(async () => {
    site = await startSite(await generate([...testPicture('800x400', 1), '-frames:v', '1'], 'png'))
    const media = createMediaTools(resolveConfig())
    t = await startSimulatedGateway({
      resolver,
      linkPreviews: createGuardedLinkPreviewer({
        allowPrivateAddresses: false,
        allowAddresses: ['127.0.0.1'],
        resolver,
        thumbnail: (bytes) => media.linkThumbnail(bytes),
      }),
    })
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('previews', ACCOUNT)
    network = loopbackOnlyNetwork()
  }, 60_000)
  afterAll(async () => {
    network?.restore()
    await t.close()
    await site.close()
  })

  const send = (message: string, extra: Record<string, unknown> = {}) =>
    t.post('/v1/message/text', { sessionId, phone: CONTACT, message, ...extra })
  const received = async (messageId: string) =>
    (await t.sim.contact(CONTACT).waitForMessage((m) => m.id === messageId)).message.extendedTextMessage!

  it('shows the Open Graph title, description and a JPEG thumbnail of the picture', async () => {
    const text = `Have a look: ${site.url('/good')}.`
    const { status, body } = await send(text)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.content).toEqual({
      text,
      linkPreview: {
        url: site.url('/good'),
        title: 'The Good Page & Co',
        description: 'All about "good" things',
        thumbnail: true,
      },
    })
    const message = await received(body.messageId)
    expect(message).toMatchObject({
      text,
      matchedText: site.url('/good'),
      title: 'The Good Page & Co',
      description: 'All about "good" things',
    })
    expect(isThumbnail(message.jpegThumbnail)).toBe(true)
    expect(readJpeg(message.jpegThumbnail!)).toMatchObject({ width: 192, height: 96 })
    expect(site.requests).toContain('/wide.png')
    expect(t.sim.violations()).toEqual([])
  })

  it('falls back to <title> and the meta description; no picture, no thumbnail', async () => {
    const { status, body } = await send(`plain ${site.url('/plain')}`)
    expect(status).toBe(200)
    expect(body.content.linkPreview).toEqual({
      url: site.url('/plain'),
      title: 'Plain page',
      description: 'No Open Graph here',
      thumbnail: false,
    })
    const message = await received(body.messageId)
    expect(message).toMatchObject({ title: 'Plain page', description: 'No Open Graph here' })
    expect(message.jpegThumbnail?.length ?? 0).toBe(0)
  })

  it('reads only the start of a 50 MB page: the preview from its head, the rest never downloaded', async () => {
    const started = Date.now()
    const { status, body } = await send(`big ${site.url('/huge')}`)
    expect(status).toBe(200)
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(body.content.linkPreview).toMatchObject({ title: 'Huge page', thumbnail: false })
    expect((await received(body.messageId)).title).toBe('Huge page')
    await vi.waitFor(() => expect(site.hugeWritten).toBeLessThan(10 * MB))
  })

  it('sends the text without a preview when the page never finishes (3 s at most)', async () => {
    const started = Date.now()
    const { status, body } = await send(`slow ${site.url('/slow')}`)
    const took = Date.now() - started
    expect(status).toBe(200)
    expect(took).toBeGreaterThanOrEqual(2_900)
    expect(took).toBeLessThan(5_000)
    expect(body.content).toEqual({ text: `slow ${site.url('/slow')}`, linkPreview: null })
    const message = await received(body.messageId)
    expect(message.text).toBe(`slow ${site.url('/slow')}`)
    expect(message.matchedText ?? '').toBe('')
    expect(message.title ?? '').toBe('')
  }, 15_000)

  it('refuses a redirect into a private network: nothing connects there, the text goes without a preview', async () => {
    const { status, body } = await send(`see ${site.url('/redirect-inside')}`)
    expect(status).toBe(200)
    expect(body.content.linkPreview).toBeNull()
    expect(resolver).toHaveBeenCalledWith('intranet.example.test')
    expect(network.targets).not.toContain('10.0.0.7')
    expect(network.blocked).toEqual([])
    expect((await received(body.messageId)).matchedText ?? '').toBe('')
  })

  it('keeps the preview but drops a picture over the size cap, or one that is no picture', async () => {
    for (const [path, title] of [
      ['/huge-image', 'Huge picture'],
      ['/not-image', 'Odd picture'],
    ] as const) {
      const { status, body } = await send(`pic ${site.url(path)}`)
      expect(status).toBe(200)
      expect(body.content.linkPreview).toEqual({ url: site.url(path), title, thumbnail: false })
      const message = await received(body.messageId)
      expect(message.title).toBe(title)
      expect(message.jpegThumbnail?.length ?? 0).toBe(0)
    }
    expect(t.sim.violations()).toEqual([])
  })

  it('sends no preview for a page without a title, and fetches nothing with linkPreview: false', async () => {
    const untitled = await send(`x ${site.url('/untitled')}`)
    expect(untitled.body.content.linkPreview).toBeNull()

    const before = site.requests.length
    const off = await send(`no preview please ${site.url('/good')}`, { linkPreview: false })
    expect(off.status).toBe(200)
    expect(off.body.content).toEqual({ text: `no preview please ${site.url('/good')}` })
    expect(site.requests).toHaveLength(before)
    expect((await received(off.body.messageId)).matchedText ?? '').toBe('')

    const noUrl = await send('no link here')
    expect(noUrl.body.content).toEqual({ text: 'no link here' })
  })
})

/** The gateway's own wiring: LINK_PREVIEWS and ALLOW_PRIVATE_ADDRESSES as the operator sets them. */
describe('the operator’s switches', () => {
  let site: Site
  beforeAll(async () => {
    site = await startSite(await generate([...testPicture('100x50', 1), '-frames:v', '1'], 'png'))
  })
  afterAll(async () => site.close())

  const sendTo = async (config: Record<string, unknown>, account: string, contact: string) => {
    const t = await startSimulatedGateway({ config })
    try {
      t.sim.addContact(contact)
      const sessionId = await t.pairByQr('switches', account)
      const sent = await t.post('/v1/message/text', { sessionId, phone: contact, message: `${site.url('/good')}` })
      expect(sent.status).toBe(200)
      const inbox = await t.sim.contact(contact).waitForMessage((m) => m.id === sent.body.messageId)
      return { record: sent.body, message: inbox.message.extendedTextMessage! }
    } finally {
      await t.close()
    }
  }

  it('previews by default through the guarded fetcher, loopback allowed by ALLOW_PRIVATE_ADDRESSES', async () => {
    const { record, message } = await sendTo({ allowPrivateAddresses: true }, '15550036102', '15551236102')
    expect(record.content.linkPreview).toMatchObject({ title: 'The Good Page & Co', thumbnail: true })
    expect(message.title).toBe('The Good Page & Co')
    expect(isThumbnail(message.jpegThumbnail)).toBe(true)
  }, 30_000)

  it('never fetches a private address without the switch, and nothing at all with LINK_PREVIEWS off', async () => {
    const before = site.requests.length
    const guarded = await sendTo({}, '15550036103', '15551236103')
    expect(guarded.record.content.linkPreview).toBeNull()
    const off = await sendTo({ allowPrivateAddresses: true, linkPreviews: false }, '15550036104', '15551236104')
    expect(off.record.content).toEqual({ text: site.url('/good') })
    expect(off.message.matchedText ?? '').toBe('')
    expect(site.requests).toHaveLength(before)
  }, 45_000)
})
