import { describe, expect, it, vi } from 'vitest'
import type { HostResolver } from '../../src/net/host-resolver'
import { checkProxyHost, createProxyGuard, proxyUrlHostProblem } from '../../src/net/proxy-guard'

/** Answers chosen addresses for chosen names: nothing here connects anywhere. */
const resolverOf = (answers: Record<string, string[]>) =>
  vi.fn<HostResolver>(async (host) => {
    const addresses = answers[host]
    if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`)
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const)
  })

const guardWith = (
  resolver: HostResolver,
  { allowedNetworks = [] as string[], ownAddresses = ['127.0.0.1', '::1', 'fd00::2'] } = {},
) => createProxyGuard({ resolver, allowPrivateAddresses: false, allowedNetworks, ownAddresses: () => ownAddresses })

describe('checkProxyHost', () => {
  const resolver = resolverOf({
    'squid.example.com': ['10.20.0.5'],
    'mixed.example.com': ['93.184.216.34', '192.168.0.9'],
    'public.example.com': ['93.184.216.34', '2606:4700::1'],
    'self.example.com': ['fd00::2'],
    'empty.example.com': [],
  })
  const guard = guardWith(resolver)

  it('refuses a name resolving to a private address, or to the host itself, with one such answer among public ones', async () => {
    for (const host of ['squid.example.com', 'mixed.example.com', 'self.example.com'])
      expect(await checkProxyHost(host, guard), host).toMatchObject({ verdict: 'refused' })
    expect(await checkProxyHost('squid.example.com', guard)).toMatchObject({
      detail: expect.stringContaining('10.20.0.5'),
    })
  })

  it('answers every address of an allowed name, in the resolver’s order (the caller pins the first)', async () => {
    expect(await checkProxyHost('public.example.com', guard)).toEqual({
      verdict: 'allowed',
      addresses: ['93.184.216.34', '2606:4700::1'],
    })
  })

  it('checks a literal as written, without asking the resolver; refuses localhost names without it too', async () => {
    resolver.mockClear()
    expect(await checkProxyHost('93.184.216.34', guard)).toEqual({ verdict: 'allowed', addresses: ['93.184.216.34'] })
    expect(await checkProxyHost('10.0.0.5', guard)).toMatchObject({ verdict: 'refused' })
    expect(await checkProxyHost('api.localhost', guard)).toMatchObject({ verdict: 'refused' })
    expect(resolver).not.toHaveBeenCalled()
  })

  it('tells a name that does not resolve, or resolves to nothing', async () => {
    expect(await checkProxyHost('nowhere.example.com', guard)).toMatchObject({
      verdict: 'unresolved',
      detail: expect.stringContaining('ENOTFOUND'),
    })
    expect(await checkProxyHost('empty.example.com', guard)).toMatchObject({ verdict: 'unresolved' })
  })

  it('allows a listed name whatever it resolves to, and private answers inside listed networks', async () => {
    const listed = guardWith(resolver, { allowedNetworks: ['squid.example.com', '192.168.0.0/16'] })
    expect(await checkProxyHost('squid.example.com', listed)).toEqual({ verdict: 'allowed', addresses: ['10.20.0.5'] })
    expect(await checkProxyHost('mixed.example.com', listed)).toMatchObject({ verdict: 'allowed' })
    expect(await checkProxyHost('self.example.com', listed)).toMatchObject({ verdict: 'refused' })
  })

  it('reads the host’s own addresses at each check (interfaces come and go)', async () => {
    let own = ['127.0.0.1']
    const changing = createProxyGuard({
      resolver,
      allowPrivateAddresses: false,
      allowedNetworks: [],
      ownAddresses: () => own,
    })
    expect(await checkProxyHost('93.184.216.34', changing)).toMatchObject({ verdict: 'allowed' })
    own = ['127.0.0.1', '93.184.216.34']
    expect(await checkProxyHost('93.184.216.34', changing)).toMatchObject({ verdict: 'refused' })
  })
})

describe('proxyUrlHostProblem', () => {
  const resolver = resolverOf({ 'squid.example.com': ['10.20.0.5'], 'self.example.com': ['fd00::2'] })

  it('gives the same words for a private address and for the host itself, literal or resolved', async () => {
    const guard = guardWith(resolver)
    const literal = new Set<string | null>()
    for (const url of ['http://10.0.0.5:3128', 'http://[fd00::2]', 'socks5://127.0.0.1', 'http://localhost'])
      literal.add(await proxyUrlHostProblem(url, guard))
    expect([...literal]).toEqual([
      'must not point at a private, loopback, link-local or reserved address, or at the gateway’s own host',
    ])
    const named = new Set<string | null>()
    for (const url of ['http://squid.example.com', 'socks5://self.example.com'])
      named.add(await proxyUrlHostProblem(url, guard))
    expect([...named]).toEqual([
      'host name resolves to a private, loopback, link-local or reserved address, or to the gateway’s own host',
    ])
  })

  it('accepts a name that does not resolve now, and a listed name without asking DNS', async () => {
    const guard = guardWith(resolver, { allowedNetworks: ['squid.example.com'] })
    expect(await proxyUrlHostProblem('http://later.example.com:3128', guard)).toBeNull()
    resolver.mockClear()
    expect(await proxyUrlHostProblem('http://squid.example.com:3128', guard)).toBeNull()
    expect(resolver).not.toHaveBeenCalled()
  })

  it('checks the shape first, never echoing the URL', async () => {
    const problem = await proxyUrlHostProblem('ftp://u:secret@10.0.0.5', guardWith(resolver))
    expect(problem).toBe('must use http, https or socks5')
  })
})
