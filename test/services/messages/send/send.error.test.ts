import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { resolveConfig } from '../../../../src/config'
import { createMediaTools } from '../../../../src/media/media-tools'
import type { ResolvedAddress } from '../../../../src/net/host-resolver'
import { createSafeFetcher } from '../../../../src/net/safe-fetcher'
import { fixtures } from '../../../support/media-fixtures'
import { loopbackOnlyNetwork, type NetworkGuard } from '../../../support/loopback-only-network'
import { startMediaServer, type MediaServer } from '../../../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550014001'
const CONTACT = '15551234001'

/** Names the injected resolver answers; nothing may ever connect to these addresses. */
const DNS: Record<string, ResolvedAddress[]> = {
  'private.media.test': [{ address: '10.0.0.7', family: 4 }],
  'metadata.media.test': [{ address: '169.254.169.254', family: 4 }],
  'ula.media.test': [{ address: 'fd00::1', family: 6 }],
  'loopback.media.test': [{ address: '127.0.0.2', family: 4 }],
}

describe('sends that must be refused', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let redirector: http.Server
  let redirectorUrl: string
  let sessionId: string
  let network: NetworkGuard
  const resolver = vi.fn(async (host: string) => {
    const answer = DNS[host]
    if (!answer) throw new Error(`test resolver: unknown host ${host}`)
    return answer
  })

  beforeAll(async () => {
    // Should the guard under test ever fail, the connection is stopped here, never sent.
    network = loopbackOnlyNetwork()
    files = await startMediaServer()
    // A server the operator allowed by exact address, whose redirect points at loopback by name.
    redirector = http.createServer((_req, res) =>
      res
        .writeHead(302, { location: `http://loopback.media.test:${(redirector.address() as AddressInfo).port}/x` })
        .end(),
    )
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve))
    redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/start`

    const config = resolveConfig({ media: { maxBytes: 64 * 1024, maxSeconds: 900, timeoutMs: 5_000 } })
    const fetcher = createSafeFetcher({
      allowPrivateAddresses: false,
      allowAddresses: ['127.0.0.1'],
      maxBytes: config.media.maxBytes,
      timeoutMs: 5_000,
      resolver,
    })
    t = await startSimulatedGateway({
      plan: 'paid',
      config: { media: config.media },
      media: createMediaTools(config, { fetcher }),
    })
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('strict', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await files.close()
    await new Promise((resolve) => redirector.close(resolve))
    network.restore()
  })

  const recordCount = async () => (await t.get(`/v1/message/all?sessionId=${sessionId}&limit=100`)).body.messages.length

  it('refuses loopback, v4-mapped and local-name URLs without fetching them (422)', async () => {
    files.serve('secret.png', await fixtures.png())
    const port = new URL(files.url('x')).port
    const blocked = createSafeFetcher({ allowPrivateAddresses: false, maxBytes: 1_000_000, timeoutMs: 2_000, resolver })
    const strict = await startSimulatedGateway({
      reuse: { sim: t.sim, control: t.control },
      media: createMediaTools(resolveConfig(), { fetcher: blocked }),
    })
    try {
      const id = await strict.pairByQr('blocked', '15550014002')
      for (const imageUrl of [
        `http://127.0.0.1:${port}/secret.png`,
        `http://[::ffff:127.0.0.1]:${port}/secret.png`,
        `http://localhost:${port}/secret.png`,
      ]) {
        const { status, body } = await strict.post('/v1/message/image', { sessionId: id, phone: CONTACT, imageUrl })
        expect(status, imageUrl).toBe(422)
        expect(body.error).toBe('media_unavailable')
      }
      expect(files.requests).toEqual([])
      expect((await strict.get(`/v1/message/all?sessionId=${id}`)).body.messages).toEqual([])
    } finally {
      await strict.stopGateway()
    }
  })

  it('refuses names that resolve to private, link-local (metadata) or ULA addresses, before connecting', async () => {
    for (const host of ['private.media.test', 'metadata.media.test', 'ula.media.test']) {
      resolver.mockClear()
      const { status, body } = await t.post('/v1/message/image', {
        sessionId,
        phone: CONTACT,
        imageUrl: `http://${host}/pic.png`,
      })
      expect(status, host).toBe(422)
      expect(body.error).toBe('media_unavailable')
      expect(resolver).toHaveBeenCalledWith(host)
    }
    expect(network.blocked).toEqual([])
    expect(network.targets.filter((address) => !address.startsWith('127.'))).toEqual([])
  })

  it('re-checks every redirect: an allowed server redirecting to loopback is refused', async () => {
    const { status, body } = await t.post('/v1/message/sticker', {
      sessionId,
      phone: CONTACT,
      stickerUrl: redirectorUrl,
    })
    expect(status).toBe(422)
    expect(body.message).toMatch(/private|loopback|refused|not allowed/i)
    expect(resolver).toHaveBeenCalledWith('loopback.media.test')
  })

  it('answers 413 for media over MEDIA_MAX_BYTES and 422 for bytes that are not what the endpoint needs', async () => {
    const before = await recordCount()
    files.serve('big.png', new Uint8Array(200 * 1024))
    const big = await t.post('/v1/message/image', { sessionId, phone: CONTACT, imageUrl: files.url('big.png') })
    expect(big.status).toBe(413)
    expect(big.body.error).toBe('payload_too_large')

    files.serve('song.png', await fixtures.mp3(1), 'image/png')
    const notImage = await t.post('/v1/message/image', { sessionId, phone: CONTACT, imageUrl: files.url('song.png') })
    expect(notImage.status).toBe(422)
    expect(notImage.body.error).toBe('media_unavailable')

    files.serve('pic.mp3', await fixtures.png(), 'audio/mpeg')
    const notAudio = await t.post('/v1/message/audio', {
      sessionId,
      phone: CONTACT,
      audioUrl: files.url('pic.mp3'),
      ptt: true,
    })
    expect(notAudio.status).toBe(422)

    const missing = await t.post('/v1/message/image', {
      sessionId,
      phone: CONTACT,
      imageUrl: files.url('nothing-here.png'),
    })
    expect(missing.status).toBe(422)
    expect(await recordCount()).toBe(before)
    expect(t.sim.contact(CONTACT).inbox()).toEqual([])
  })

  it('answers 400 naming the limit for six list rows or six buttons, and for bad coordinates', async () => {
    const row = (n: number) => ({ title: `r${n}`, rowId: `r${n}` })
    const list = await t.post('/v1/message/list', {
      sessionId,
      phone: CONTACT,
      text: 't',
      buttonText: 'b',
      sections: [
        { title: 'a', rows: [row(1), row(2), row(3)] },
        { title: 'b', rows: [row(4), row(5), row(6)] },
      ],
    })
    expect(list.status).toBe(400)
    expect(list.body.details.fields).toContainEqual({
      path: 'sections',
      message: 'at most 5 rows across all sections (got 6)',
    })
    const buttons = await t.post('/v1/message/buttons', {
      sessionId,
      phone: CONTACT,
      message: 'm',
      buttons: [1, 2, 3, 4, 5, 6].map((n) => ({ buttonId: `b${n}`, buttonText: `B${n}` })),
    })
    expect(buttons.status).toBe(400)
    expect(buttons.body.details.fields[0]).toMatchObject({ path: 'buttons', message: 'at most 5 buttons (got 6)' })
    const location = await t.post('/v1/message/location', { sessionId, phone: CONTACT, latitude: 91, longitude: 0 })
    expect(location.status).toBe(400)
    expect(location.body.details.fields[0].path).toBe('latitude')
    const noText = await t.post('/v1/message/text', { sessionId, phone: CONTACT })
    expect(noText.body.details.fields).toContainEqual({ path: 'message', message: 'is required' })
    const badPhone = await t.post('/v1/message/text', { sessionId, phone: '12ab', message: 'x' })
    expect(badPhone.status).toBe(400)
    expect(badPhone.body.details.fields[0].path).toBe('phone')
  })

  it('answers 404 for a quoteId that is not a message of the chat', async () => {
    const { status, body } = await t.post('/v1/message/text', {
      sessionId,
      phone: CONTACT,
      message: 'x',
      quoteId: 'UNKNOWN',
    })
    expect(status).toBe(404)
    expect(body.details).toEqual({ field: 'quoteId' })
  })

  it('answers 409 session_not_connected for a session that is not connected, and records nothing', async () => {
    const pending = await t.connect({ sessionName: 'never-scanned' })
    const { status, body } = await t.post('/v1/message/text', {
      sessionId: pending.body.sessionId,
      phone: CONTACT,
      message: 'x',
    })
    expect(status).toBe(409)
    expect(body).toMatchObject({ error: 'session_not_connected', details: { status: 'pending' } })
    expect((await t.get(`/v1/message/all?sessionId=${pending.body.sessionId}`)).body.messages).toEqual([])
  })
})
