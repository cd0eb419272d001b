import { describe, expect, it } from 'vitest'
import {
  emptyAllowList,
  parseProxyAllowList,
  proxyAddressAllowed,
  proxyAllowEntryProblem,
  proxyNameVerdict,
  type ProxyAddressPolicy,
} from '../../src/net/proxy-address-policy'

/** A host like the one this was written on: a documentation IPv4 and a ULA on eth0, IPv6 link-local. */
const OWN = ['127.0.0.1', '::1', '192.0.2.2', 'fd00::2', 'fe80::fc:ff:fe00:1%eth0', '203.0.113.9']
const strict: ProxyAddressPolicy = { allowPrivateAddresses: false, allowList: emptyAllowList, ownAddresses: OWN }
const listing = (...entries: string[]): ProxyAddressPolicy => ({ ...strict, allowList: parseProxyAllowList(entries) })

describe('proxyAddressAllowed', () => {
  it('allows public unicast, IPv4 and IPv6', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1', '::ffff:93.184.216.34'])
      expect(proxyAddressAllowed(address, strict), address).toBe(true)
  })

  it('refuses loopback, private, CGNAT, unique local, link-local, reserved and wrapped addresses by default', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      '::',
      '10.0.0.5',
      '172.16.3.4',
      '192.168.1.10',
      '::ffff:10.0.0.5',
      '100.64.0.1',
      'fd12:3456::1',
      'fc00::1',
      '169.254.169.254',
      'fe80::1',
      '198.18.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '224.0.0.1',
      'ff02::1',
      '64:ff9b::a00:5', // NAT64 of 10.0.0.5
      '2002:a00:5::1', // 6to4 of 10.0.0.5
      '::7f00:1', // IPv4-compatible 127.0.0.1
      'not an address',
    ])
      expect(proxyAddressAllowed(address, strict), address).toBe(false)
  })

  it('refuses the host’s own addresses, public ones included, and matches them in any spelling', () => {
    for (const address of ['203.0.113.9', 'fd00::2', 'fd00:0:0:0:0:0:0:2', '::ffff:192.0.2.2', 'fe80::fc:ff:fe00:1'])
      expect(proxyAddressAllowed(address, strict), address).toBe(false)
    // A public address that is not the host's stays allowed.
    expect(proxyAddressAllowed('203.0.113.10', { ...strict, ownAddresses: [] })).toBe(false) // TEST-NET-3 is reserved
    expect(proxyAddressAllowed('93.184.216.35', strict)).toBe(true)
  })

  it('lets private addresses through inside the operator’s networks only', () => {
    const policy = listing('10.0.0.0/8', 'fd12::/16', '192.168.1.10', '::ffff:172.16.0.0/108')
    for (const address of [
      '10.0.0.5',
      '10.255.255.255',
      '::ffff:10.1.2.3',
      'fd12:3456::1',
      '192.168.1.10',
      '172.16.0.1',
    ])
      expect(proxyAddressAllowed(address, policy), address).toBe(true)
    for (const address of ['192.168.2.1', '192.168.1.11', 'fd13::1', '169.254.169.254', '127.0.0.1'])
      expect(proxyAddressAllowed(address, policy), address).toBe(false)
  })

  it('lets the host’s own addresses through only by an entry naming that very address', () => {
    // Every network listed: the host itself is still closed (a proxy network often holds the gateway too).
    const everywhere = listing('0.0.0.0/0', '::/0')
    for (const address of OWN) expect(proxyAddressAllowed(address, everywhere), address).toBe(false)
    expect(proxyAddressAllowed('127.0.0.2', everywhere)).toBe(false)
    expect(proxyAddressAllowed('0.0.0.0', everywhere)).toBe(false)
    expect(proxyAddressAllowed('10.0.0.5', everywhere)).toBe(true)
    expect(proxyAddressAllowed('fd00::3', everywhere)).toBe(true)

    const exact = listing('127.0.0.1', 'fd00::2/128', '192.0.2.2/32')
    for (const address of ['127.0.0.1', '::ffff:127.0.0.1', 'fd00::2', '192.0.2.2'])
      expect(proxyAddressAllowed(address, exact), address).toBe(true)
    for (const address of ['127.0.0.2', '::1', '203.0.113.9'])
      expect(proxyAddressAllowed(address, exact), address).toBe(false)
  })

  it('allows everything, the host itself included, under ALLOW_PRIVATE_ADDRESSES', () => {
    const open = { ...strict, allowPrivateAddresses: true }
    for (const address of ['127.0.0.1', '10.0.0.5', 'fd00::2', '169.254.169.254', '93.184.216.34'])
      expect(proxyAddressAllowed(address, open), address).toBe(true)
  })
})

describe('proxyNameVerdict', () => {
  it('refuses localhost names, leaves other names to their addresses, and allows listed names whatever they resolve to', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'api.localhost'])
      expect(proxyNameVerdict(host, strict)).toBe('refused')
    expect(proxyNameVerdict('squid.corp.example', strict)).toBeUndefined()
    expect(proxyNameVerdict('notlocalhost', strict)).toBeUndefined()
    const policy = listing('Squid.Corp.Example.', 'localhost')
    expect(proxyNameVerdict('squid.corp.example', policy)).toBe('allowed')
    expect(proxyNameVerdict('squid.corp.example.', policy)).toBe('allowed')
    expect(proxyNameVerdict('localhost', policy)).toBe('allowed')
    expect(proxyNameVerdict('other.corp.example', policy)).toBeUndefined()
    expect(proxyNameVerdict('localhost', { ...strict, allowPrivateAddresses: true })).toBe('allowed')
  })
})

describe('PROXY_ALLOWED_NETWORKS entries', () => {
  it('takes networks, addresses and host names', () => {
    for (const entry of [
      '10.0.0.0/8',
      '10.1.2.3/8',
      'fd00::/8',
      '192.168.1.10',
      '::1',
      'squid.corp.example',
      'Proxy-1.EXAMPLE.',
    ])
      expect(proxyAllowEntryProblem(entry), entry).toBeNull()
    const list = parseProxyAllowList(['10.0.0.0/8', 'Proxy-1.EXAMPLE.'])
    expect(list.networks).toHaveLength(1)
    expect([...list.hosts]).toEqual(['proxy-1.example'])
  })

  it('refuses what is none of them, naming the entry', () => {
    for (const entry of [
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0',
      '0x7f.1',
      '10',
      'squid corp',
      'http://squid',
      'a/b',
      '-',
      `${'a'.repeat(64)}.example`,
    ])
      expect(proxyAllowEntryProblem(entry), entry).toMatch(/is neither an address, a network .* nor a host name/)
    expect(() => parseProxyAllowList(['10.0.0.0/33'])).toThrow(/PROXY_ALLOWED_NETWORKS: "10.0.0.0\/33"/)
  })
})
