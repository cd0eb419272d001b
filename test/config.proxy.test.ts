import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config'

describe('proxy settings', () => {
  it('PROXY_ALLOWED_NETWORKS: a comma list of networks, addresses and host names; none by default', () => {
    expect(loadConfig({}).proxyAllowedNetworks).toEqual([])
    expect(
      loadConfig({ PROXY_ALLOWED_NETWORKS: ' 10.0.0.0/8, fd00::/8 ,,192.168.1.10, squid.corp.example ' })
        .proxyAllowedNetworks,
    ).toEqual(['10.0.0.0/8', 'fd00::/8', '192.168.1.10', 'squid.corp.example'])
  })

  it('stops the start on an entry that is none of them, naming the variable and the entry', () => {
    expect(() => loadConfig({ PROXY_ALLOWED_NETWORKS: '10.0.0.0/8,10.0.0.0/33' })).toThrow(
      /PROXY_ALLOWED_NETWORKS: "10.0.0.0\/33" is neither an address, a network/,
    )
    expect(() => loadConfig({ PROXY_ALLOWED_NETWORKS: 'http://squid:3128' })).toThrow(/PROXY_ALLOWED_NETWORKS/)
  })
})
