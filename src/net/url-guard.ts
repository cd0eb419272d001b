import ipaddr from 'ipaddr.js'

export interface UrlPolicy {
  allowHttp: boolean
  allowPrivateAddresses: boolean
}

const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain)$/i

/** True for an address a user-supplied URL must not reach: anything but public unicast. */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  return ipaddr.process(address).range() !== 'unicast'
}

/**
 * Why a user-supplied URL may not be used, or null when it may. Checks what can be known
 * without DNS (scheme, literal IPs, local names); delivery re-checks the resolved addresses.
 */
export function urlProblem(raw: string, policy: UrlPolicy): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute URL'
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol)) return policy.allowHttp ? 'must use https or http' : 'must use https'
  if (policy.allowPrivateAddresses) return null
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (LOCAL_NAME.test(host) || isPrivateAddress(host)) {
    return 'must not point at a private, loopback or link-local address'
  }
  return null
}
