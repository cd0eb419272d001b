import ipaddr from 'ipaddr.js'
import { isPrivateAddress } from './url-guard'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/** PROXY_ALLOWED_NETWORKS taken apart: networks (a single address is a /32 or /128) and host names. */
export interface ProxyAllowList {
  networks: readonly (readonly [Address, number])[]
  /** Lower case, without a trailing dot, as a URL's host reads. */
  hosts: ReadonlySet<string>
}

/**
 * Where a workspace's proxy may be. Anything but public unicast (loopback, private, CGNAT,
 * unique local, link-local and so cloud metadata, reserved, NAT64/6to4 wrappers) only inside
 * the operator's allowed networks or on a listed host; the gateway host itself (its interface
 * addresses, all of loopback, the unspecified address) only where an entry names that very
 * address, because an allowed network often holds the host too. ALLOW_PRIVATE_ADDRESSES lifts
 * every rule.
 */
export interface ProxyAddressPolicy {
  allowPrivateAddresses: boolean
  allowList: ProxyAllowList
  /** The gateway host's own interface addresses at the time of the check. */
  ownAddresses: readonly string[]
}

export const emptyAllowList: ProxyAllowList = { networks: [], hosts: new Set() }

const LOOPBACK_NAME = /(^|\.)localhost$/i
const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/

const bareName = (host: string) => host.toLowerCase().replace(/\.+$/, '')

/** An address without its IPv6 zone, as ipaddr.js reads it (IPv4-mapped IPv6 as the IPv4). */
function parsed(address: string): Address | undefined {
  const bare = address.replace(/%.*$/, '')
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined
}

/** An entry as an address or network, or undefined when it is not one (a host name, or nothing). */
function network(entry: string): readonly [Address, number] | undefined {
  if (entry.includes('/')) {
    if (!ipaddr.isValidCIDR(entry)) return undefined
    const [address, bits] = ipaddr.parseCIDR(entry)
    // ::ffff:10.0.0.0/104 is 10.0.0.0/8, as addresses are compared as the IPv4 they carry.
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
      return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96]
    return [address, bits]
  }
  // Only the dotted four-part form for IPv4: `10.1` or `0x7f.1` are not entries anyone means.
  if (ipaddr.IPv4.isValidFourPartDecimal(entry)) return [ipaddr.IPv4.parse(entry), 32]
  if (ipaddr.IPv6.isValid(entry)) {
    const address = ipaddr.process(entry)
    return [address, address.kind() === 'ipv6' ? 128 : 32]
  }
  return undefined
}

/** A host name entry as a URL's host would read it, or undefined (an IP-looking or malformed name). */
function hostName(entry: string): string | undefined {
  // Only a name: anything a URL would read as scheme, port, path or credentials is not one.
  if (/[\s/\\?#@:[\]%]/.test(entry)) return undefined
  let host: string
  try {
    host = bareName(new URL(`http://${entry}/`).hostname)
  } catch {
    return undefined
  }
  const labels = host.split('.')
  // A URL host whose last label is numeric is read as IPv4 (`10.0.0` is 10.0.0.0): not a name.
  if (host.length > 253 || /^(0x[0-9a-f]*|\d+)$/.test(labels.at(-1) ?? '')) return undefined
  return labels.every((label) => LABEL.test(label)) ? host : undefined
}

/** Why one PROXY_ALLOWED_NETWORKS entry is unusable, or null. */
export function proxyAllowEntryProblem(entry: string): string | null {
  if (network(entry) || hostName(entry)) return null
  return `"${entry.slice(0, 60)}" is neither an address, a network (10.0.0.0/8, fd00::/8) nor a host name`
}

/** The entries of PROXY_ALLOWED_NETWORKS (each checked with proxyAllowEntryProblem first). */
export function parseProxyAllowList(entries: readonly string[]): ProxyAllowList {
  const networks: (readonly [Address, number])[] = []
  const hosts = new Set<string>()
  for (const entry of entries) {
    const asNetwork = network(entry)
    if (asNetwork) networks.push(asNetwork)
    else {
      const name = hostName(entry)
      if (!name) throw new Error(`PROXY_ALLOWED_NETWORKS: ${proxyAllowEntryProblem(entry)}`)
      hosts.add(name)
    }
  }
  return { networks, hosts }
}

/**
 * What a proxy's host name alone decides: `allowed` (the operator's switch, or the name is
 * listed: every address it resolves to is then the operator's choice), `refused` (a localhost
 * name is loopback whatever a resolver says, RFC 6761), or undefined: its addresses decide.
 */
export function proxyNameVerdict(host: string, policy: ProxyAddressPolicy): 'allowed' | 'refused' | undefined {
  const name = bareName(host)
  if (policy.allowPrivateAddresses || policy.allowList.hosts.has(name)) return 'allowed'
  return LOOPBACK_NAME.test(name) ? 'refused' : undefined
}

/** Whether a workspace's proxy may be reached at this address (its literal, or one its name resolves to). */
export function proxyAddressAllowed(address: string, policy: ProxyAddressPolicy): boolean {
  if (policy.allowPrivateAddresses) return true
  const ip = parsed(address)
  if (!ip) return false
  const inside = ([net, bits]: readonly [Address, number]) => net.kind() === ip.kind() && ip.match(net, bits)
  if (isOwnAddress(ip, policy.ownAddresses))
    return policy.allowList.networks.some((entry) => entry[1] === (ip.kind() === 'ipv6' ? 128 : 32) && inside(entry))
  if (!isPrivateAddress(ip.toString())) return true
  return policy.allowList.networks.some(inside)
}

/** The gateway host itself: all of loopback, the unspecified address (which connects to it), or an interface's address. */
function isOwnAddress(ip: Address, ownAddresses: readonly string[]): boolean {
  const range = ip.range()
  if (range === 'loopback' || range === 'unspecified') return true
  const text = ip.toString()
  return ownAddresses.some((own) => parsed(own)?.toString() === text)
}
