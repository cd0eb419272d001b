import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type MediaAddressGuard, pinnedMediaFetch } from '../../../../src/engine/whatsapp/media/media-fetch'
import type { HostResolver } from '../../../../src/net/host-resolver'
import { loopbackOnlyNetwork, type NetworkGuard } from '../../../support/loopback-only-network'
import { startLoopbackServer, type LoopbackServer } from '../../../support/loopback-server'
import { makeMediaTls, type MediaTlsMaterial } from '../../../wa-sim/certificates'

/** A resolver answering from a fixed table; nothing goes to DNS. */
const table =
  (answers: Record<string, string[]>): HostResolver =>
  async (name) =>
    (answers[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

const guard = (answers: Record<string, string[]>, privateHosts: string[] = []): MediaAddressGuard => ({
  resolver: table(answers),
  allowPrivateAddresses: false,
  privateHosts,
})

const get = (fetchMedia: ReturnType<typeof pinnedMediaFetch>, url: string) =>
  fetchMedia(new URL(url), { signal: AbortSignal.timeout(5_000), headers: {} })

/** The downloads' connections: node:https to the address the guard checked, never another. */
describe('pinnedMediaFetch', () => {
  let tls: MediaTlsMaterial
  let media: Server
  let port: number
  let connections = 0
  const seen: { host?: string; path?: string }[] = []
  let internal: LoopbackServer
  let network: NetworkGuard | undefined

  beforeAll(async () => {
    tls = await makeMediaTls()
    internal = await startLoopbackServer((_req, res) => res.end('internal'))
    media = createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
      seen.push({ host: req.headers.host, path: req.url })
      if (req.url === '/redirect') {
        res.writeHead(302, { location: internal.url('/admin') })
        res.end()
        return
      }
      res.writeHead(200, { 'content-length': '4' })
      res.end('file')
    })
    media.on('connection', () => connections++)
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve))
    port = (media.address() as AddressInfo).port
  })
  afterAll(async () => {
    media.closeAllConnections()
    await new Promise((resolve) => media.close(resolve))
    await internal.close()
  })
  afterEach(() => {
    network?.restore()
    network = undefined
    connections = 0
    seen.length = 0
  })

  it('refuses a name that resolves to loopback: no socket is opened', async () => {
    network = loopbackOnlyNetwork()
    const fetchMedia = pinnedMediaFetch(guard({ 'mmg.whatsapp.net': ['127.0.0.1'] }), tls.caPem)
    await expect(get(fetchMedia, `https://mmg.whatsapp.net:${port}/file`)).rejects.toThrow(/loopback/)
    expect(network.targets).toEqual([])
    expect(connections).toBe(0)
  })

  it('refuses a name with one private answer among public ones, and a private literal', async () => {
    network = loopbackOnlyNetwork()
    const answers = { 'media-fra5-1.cdn.whatsapp.net': ['157.240.0.53', '10.0.0.7'] }
    const fetchMedia = pinnedMediaFetch(guard(answers), undefined)
    await expect(get(fetchMedia, 'https://media-fra5-1.cdn.whatsapp.net/x')).rejects.toThrow(/private/)
    await expect(get(fetchMedia, 'https://169.254.169.254/x')).rejects.toThrow(/private/)
    expect(network.targets).toEqual([])
  })

  it('connects a trusted host (the simulator’s) to exactly the checked address, its name kept for Host and TLS', async () => {
    network = loopbackOnlyNetwork()
    const host = `localhost:${port}`
    const fetchMedia = pinnedMediaFetch(guard({ localhost: ['127.0.0.1'] }, [host]), tls.caPem)
    const response = await get(fetchMedia, `https://${host}/file`)
    expect(response).toMatchObject({ status: 200, declaredLength: 4 })
    expect(await new Response(response.body).text()).toBe('file')
    expect(seen).toEqual([{ host, path: '/file' }])
    expect(network.targets).toEqual(['127.0.0.1'])
    // The resolver's answer is the one connected to, whatever the system would say of the name
    const elsewhere = pinnedMediaFetch(guard({ localhost: ['127.0.0.2'] }, [host]), tls.caPem)
    await expect(get(elsewhere, `https://${host}/file`)).rejects.toThrow(/ECONNREFUSED/)
    expect(network.targets).toEqual(['127.0.0.1', '127.0.0.2'])
  })

  it('only that host: another port of the same name is not trusted', async () => {
    const fetchMedia = pinnedMediaFetch(guard({ localhost: ['127.0.0.1'] }, [`localhost:${port + 1}`]), tls.caPem)
    await expect(get(fetchMedia, `https://localhost:${port}/file`)).rejects.toThrow(/local host name/)
    expect(connections).toBe(0)
  })

  it('answers a redirect as it is, never following it', async () => {
    const fetchMedia = pinnedMediaFetch(guard({ localhost: ['127.0.0.1'] }, [`localhost:${port}`]), tls.caPem)
    const response = await get(fetchMedia, `https://localhost:${port}/redirect`)
    expect(response.status).toBe(302)
    await response.body?.cancel()
    expect(internal.connections).toBe(0)
  })
})
