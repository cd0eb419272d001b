import { describe, expect, it, vi } from 'vitest'
import type { HostResolver } from '../../../../src/net/host-resolver'
import { createProxyGuard } from '../../../../src/net/proxy-guard'
import { proxiedTarget, ProxyTargetError } from '../../../../src/engine/whatsapp/socket/proxy-target'

/**
 * The check before each connection of a workspace's proxy: building a target opens no
 * connection (the agents connect when used), so these names may answer any address.
 */
const resolver = vi.fn<HostResolver>(async (host) => {
  const answers: Record<string, string> = {
    'squid.example.com': '10.20.0.5',
    'self.example.com': 'fd00::2',
    'socks.proxies.example': '127.0.0.1',
  }
  if (!answers[host]) throw new Error(`getaddrinfo ENOTFOUND ${host}`)
  return [{ address: answers[host], family: answers[host].includes(':') ? 6 : 4 }]
})
const guard = (allowedNetworks: string[] = []) =>
  createProxyGuard({ resolver, allowPrivateAddresses: false, allowedNetworks, ownAddresses: () => ['fd00::2'] })
const endpoint = {}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

describe('proxiedTarget', () => {
  it('refuses a name that now resolves to a private address or to the host itself: proxy_forbidden', async () => {
    for (const url of ['http://u:p@squid.example.com:3128', 'socks5://self.example.com']) {
      const error = await failure(proxiedTarget(endpoint, { url, checked: true }, guard()))
      expect(error, url).toBeInstanceOf(ProxyTargetError)
      expect((error as ProxyTargetError).closeCause).toBe('proxy_forbidden')
      expect((error as Error).message).not.toContain('u:p')
    }
  })

  it('says proxy_unreachable for a name that does not resolve', async () => {
    const error = await failure(proxiedTarget(endpoint, { url: 'http://gone.example.com', checked: true }, guard()))
    expect(error).toMatchObject({ closeCause: 'proxy_unreachable', message: expect.stringContaining('ENOTFOUND') })
  })

  it('pins an allowed name to the address it was checked at', async () => {
    const target = await proxiedTarget(
      endpoint,
      { url: 'socks5://socks.proxies.example:1080', checked: true },
      guard(['socks.proxies.example']),
    )
    expect((target.agent as unknown as { proxy: { host: string } }).proxy.host).toBe('127.0.0.1')
    const http = await proxiedTarget(
      endpoint,
      { url: 'http://squid.example.com:3128', checked: true },
      guard(['10.0.0.0/8']),
    )
    expect(String((http.agent as unknown as { proxy: URL }).proxy)).toBe('http://10.20.0.5:3128/')
  })

  it('trusts the operator’s PROXY_URL as configured (not checked, not resolved)', async () => {
    resolver.mockClear()
    await proxiedTarget(endpoint, { url: 'http://squid.example.com:3128', checked: false }, guard())
    expect(resolver).not.toHaveBeenCalled()
  })
})
