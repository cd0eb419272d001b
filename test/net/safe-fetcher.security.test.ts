import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { HostResolver } from '../../src/net/host-resolver'
import { createSafeFetcher } from '../../src/net/safe-fetcher'
import { loopbackOnlyNetwork, type NetworkGuard } from '../support/loopback-only-network'
import { expectGatewayError } from '../support/expect-error'
import { startLocalServer, type LocalServer } from '../support/local-server'

let server: LocalServer
let second: LocalServer // on 127.0.0.2: still loopback, so a broken guard harms nothing, but it shows
let network: NetworkGuard

beforeAll(async () => {
  server = await startLocalServer('127.0.0.1')
  second = await startLocalServer('127.0.0.2')
})
afterAll(async () => Promise.all([server.close(), second.close()]))
afterEach(() => {
  network?.restore()
  server.seen.length = 0
  second.seen.length = 0
})

const limits = { maxBytes: 1_000, timeoutMs: 2_000 }
/** A resolver answering from a fixed table; nothing goes to DNS. */
const tableResolver = (table: Record<string, string[]>) =>
  vi.fn<HostResolver>(async (name) =>
    (table[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  )

describe('refused before any connection', () => {
  it('refuses a loopback literal: the local server sees nothing and no socket is opened', async () => {
    network = loopbackOnlyNetwork()
    const fetcher = createSafeFetcher({ allowPrivateAddresses: false, ...limits })
    const error = await expectGatewayError(fetcher.fetch(server.url('/hello')), 'media_unavailable')
    expect(error.message).toMatch(/private, loopback or link-local/)
    expect(server.seen).toEqual([])
    expect(network.targets).toEqual([])
  })

  it.each([
    '[::ffff:127.0.0.1]',
    '[::127.0.0.1]',
    '[::7f00:1]',
    '[::1]',
    'localhost.',
    'foo.localhost',
    'metadata.google.internal.',
  ])('refuses %s without resolving or connecting', async (host) => {
    network = loopbackOnlyNetwork()
    const resolver = tableResolver({})
    const fetcher = createSafeFetcher({ allowPrivateAddresses: false, resolver, ...limits })
    await expectGatewayError(fetcher.fetch(`http://${host}:${server.port}/hello`), 'media_unavailable')
    expect(resolver).not.toHaveBeenCalled()
    expect(network.targets).toEqual([])
    expect(server.seen).toEqual([])
  })

  it.each([['10.1.2.3'], ['169.254.169.254'], ['fd00:ec2::254'], ['100.100.100.200'], ['93.184.216.34', '10.0.0.7']])(
    'refuses a name resolving to %s: only the resolver is called, nothing connects',
    async (...answers) => {
      network = loopbackOnlyNetwork()
      const resolver = tableResolver({ 'media.example.test': answers })
      const fetcher = createSafeFetcher({ allowPrivateAddresses: false, resolver, ...limits })
      const error = await expectGatewayError(
        fetcher.fetch('http://media.example.test/cat.png?token=s3cret'),
        'media_unavailable',
      )
      expect(error.message).toMatch(/resolves to a private/)
      expect(error.details).toEqual({ url: 'http://media.example.test/cat.png' })
      expect(JSON.stringify(error)).not.toContain('s3cret')
      expect(resolver).toHaveBeenCalledTimes(1)
      expect(network.targets).toEqual([])
    },
  )

  it('refuses schemes other than http(s), and http when only https is allowed', async () => {
    const fetcher = createSafeFetcher({ allowPrivateAddresses: true, allowHttp: false, ...limits })
    expect((await expectGatewayError(fetcher.fetch('file:///etc/passwd'), 'media_unavailable')).message).toMatch(
      /https/,
    )
    await expectGatewayError(fetcher.fetch(server.url('/hello')), 'media_unavailable')
    expect(server.seen).toEqual([])
  })
})

describe('pinning and redirects', () => {
  it('resolves once per hop and connects to the checked address, keeping the name as Host', async () => {
    network = loopbackOnlyNetwork()
    // A rebinding resolver: the first answer is the allowed one, any later one is private.
    const resolver = vi
      .fn<HostResolver>()
      .mockResolvedValueOnce([{ address: '127.0.0.1', family: 4 }])
      .mockResolvedValue([{ address: '10.9.9.9', family: 4 }])
    const fetcher = createSafeFetcher({
      allowPrivateAddresses: false,
      allowAddresses: ['127.0.0.1'],
      resolver,
      ...limits,
    })
    const fetched = await fetcher.fetch(`http://cdn.example.test:${server.port}/hello`)
    expect(new TextDecoder().decode(fetched.bytes)).toBe('hello')
    expect(fetched.contentTypeHeader).toBe('text/plain')
    expect(resolver).toHaveBeenCalledTimes(1)
    expect(network.targets).toEqual(['127.0.0.1'])
    expect(server.seen).toEqual([{ path: '/hello', host: `cdn.example.test:${server.port}` }])
  })

  it('re-checks a redirect target: a name answering another address is refused and never contacted', async () => {
    network = loopbackOnlyNetwork()
    const resolver = tableResolver({ 'cdn.example.test': ['127.0.0.1'], 'inner.example.test': ['127.0.0.2'] })
    const fetcher = createSafeFetcher({
      allowPrivateAddresses: false,
      allowAddresses: ['127.0.0.1'],
      resolver,
      ...limits,
    })
    const target = `http://inner.example.test:${second.port}/hello`
    const error = await expectGatewayError(
      fetcher.fetch(`http://cdn.example.test:${server.port}/redirect?to=${encodeURIComponent(target)}`),
      'media_unavailable',
    )
    expect(error.message).toMatch(/resolves to a private/)
    expect(server.seen.map((seen) => seen.path)).toEqual([expect.stringMatching(/^\/redirect/)])
    expect(second.seen).toEqual([])
    expect(resolver.mock.calls.map(([name]) => name)).toEqual(['cdn.example.test', 'inner.example.test'])
    expect(network.targets).toEqual(['127.0.0.1'])
  })

  it('re-checks a redirect to a metadata literal without connecting to it', async () => {
    network = loopbackOnlyNetwork()
    const fetcher = createSafeFetcher({ allowPrivateAddresses: false, allowAddresses: ['127.0.0.1'], ...limits })
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data/')
    await expectGatewayError(fetcher.fetch(server.url(`/redirect?to=${to}`)), 'media_unavailable')
    expect(network.targets).toEqual(['127.0.0.1'])
    expect(network.blocked).toEqual([])
  })

  it('follows allowed redirects and stops after maxRedirects', async () => {
    const fetcher = createSafeFetcher({ allowPrivateAddresses: true, maxRedirects: 1, ...limits })
    const once = await fetcher.fetch(server.url('/redirect?to=/hello'))
    expect(once.finalUrl).toBe(server.url('/hello'))
    const twice = `/redirect?to=${encodeURIComponent('/redirect?to=/hello')}`
    expect((await expectGatewayError(fetcher.fetch(server.url(twice)), 'media_unavailable')).message).toMatch(
      /more than 1 redirects/,
    )
  })
})
