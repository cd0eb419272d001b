import ipaddr from 'ipaddr.js'
import { defaultResolver, type HostResolver } from './host-resolver'

export interface UrlPolicy {
  allowHttp: boolean
  allowPrivateAddresses: boolean
}

/** Names that only mean something inside a network (RFC 6761/6762, cloud metadata hosts). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain)$/i

/**
 * The host of a URL as DNS and ipaddr.js see it: without IPv6 brackets and without the
 * trailing dot of a fully qualified name (`localhost.` is `localhost`, and resolves so).
 */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '')
}

export function isLocalName(host: string): boolean {
  return LOCAL_NAME.test(host.replace(/\.+$/, ''))
}

/**
 * True for an address a user-supplied URL must not reach: anything but public unicast
 * (loopback, private, link-local and so cloud metadata, CGNAT, unspecified, reserved,
 * NAT64/6to4/Teredo wrappers). IPv4-mapped addresses count as the IPv4 they carry; the
 * deprecated IPv4-compatible block ::/96 (`[::127.0.0.1]` normalises to `[::7f00:1]`,
 * which ipaddr.js calls unicast) is refused whole: no public host needs it.
 */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.process(address)
  if (parsed.kind() === 'ipv6' && isIpv4Compatible(parsed as ipaddr.IPv6)) return true
  return parsed.range() !== 'unicast'
}

function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0)
}

/*
 * The refusals name the operator's switch that lifts them: the first person to meet them is
 * usually someone trying the gateway on a laptop with a local receiver, for whom it is the next step.
 */
const HTTPS_ONLY = 'must use https (http:// only when the operator sets WEBHOOK_ALLOW_HTTP=true, for local development)'
const PRIVATE_SWITCH = 'only when the operator sets ALLOW_PRIVATE_ADDRESSES=true, for local development'

/**
 * Why a user-supplied URL may not be used, or null when it may. Checks what can be known
 * without DNS (scheme, literal IPs, local names); `resolvedUrlProblem` adds the DNS answer.
 */
export function urlProblem(raw: string, policy: UrlPolicy): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute URL'
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol)) return policy.allowHttp ? 'must use https or http' : HTTPS_ONLY
  if (policy.allowPrivateAddresses) return null
  const host = bareHost(url)
  if (isLocalName(host) || isPrivateAddress(host)) {
    return `must not point at a private, loopback or link-local address (${PRIVATE_SWITCH})`
  }
  return null
}

/**
 * `urlProblem`, then the name's DNS answers: refused when any answer is private, so a
 * webhook URL naming an internal host is turned away when it is set, not only at delivery.
 * A name that does not resolve now is not refused (DNS may be down, or the record not yet
 * published); delivery re-checks and pins the address anyway.
 */
export async function resolvedUrlProblem(
  raw: string,
  policy: UrlPolicy,
  resolver: HostResolver = defaultResolver,
): Promise<string | null> {
  const problem = urlProblem(raw, policy)
  if (problem || policy.allowPrivateAddresses) return problem
  const host = bareHost(new URL(raw))
  if (ipaddr.isValid(host)) return null
  let answers: readonly { address: string }[]
  try {
    answers = await resolver(host)
  } catch {
    return null
  }
  if (answers.some((answer) => isPrivateAddress(answer.address))) {
    return `host name resolves to a private, loopback or link-local address (${PRIVATE_SWITCH})`
  }
  return null
}
