import ipaddr from 'ipaddr.js'
import type { HostResolver } from './host-resolver'
import {
  parseProxyAllowList,
  type ProxyAddressPolicy,
  proxyAddressAllowed,
  proxyNameVerdict,
} from './proxy-address-policy'
import { parseProxyUrl, proxyUrlProblem } from './proxy-url'

/** How a workspace's proxy host is resolved and checked, when it is set and before each connection. */
export interface ProxyGuard {
  resolver: HostResolver
  /** The operator's ALLOW_PRIVATE_ADDRESSES, for fetches that share the guard's resolver (media downloads). */
  allowPrivateAddresses: boolean
  /** The policy as it stands now (the host's interface addresses are read at each call). */
  policy(): ProxyAddressPolicy
}

/**
 * A proxy host checked: the addresses it may be reached at (the literal, or every answer of the
 * resolver, in its order), `refused` by the policy, or `unresolved`. `detail` is for the
 * operator's log only: a workspace sees one reason whatever it says.
 */
export type ProxyHostCheck =
  | { verdict: 'allowed'; addresses: string[] }
  | { verdict: 'refused' | 'unresolved'; detail: string }

/**
 * The one check of a workspace's proxy host, by name then by every address (one refused answer
 * among allowed ones refuses the name: resolver order is not ours to trust). The caller
 * connects to one of `addresses` literally, so DNS cannot answer differently afterwards.
 */
export async function checkProxyHost(host: string, guard: ProxyGuard): Promise<ProxyHostCheck> {
  const policy = guard.policy()
  const byName = ipaddr.isValid(host) ? undefined : proxyNameVerdict(host, policy)
  if (byName === 'refused') return { verdict: 'refused', detail: 'the proxy host is a localhost name' }
  let addresses: string[]
  if (ipaddr.isValid(host)) addresses = [host]
  else {
    try {
      addresses = (await guard.resolver(host)).map((answer) => answer.address)
    } catch (error) {
      return { verdict: 'unresolved', detail: `the proxy host does not resolve: ${(error as Error).message}` }
    }
    if (addresses.length === 0) return { verdict: 'unresolved', detail: 'the proxy host has no address' }
  }
  const refused = byName === 'allowed' ? undefined : addresses.find((address) => !proxyAddressAllowed(address, policy))
  if (refused !== undefined)
    return {
      verdict: 'refused',
      detail: `the proxy host ${refused === host ? 'is' : `resolves to ${refused}, which is`} private, reserved or this host's own (ALLOW_PRIVATE_ADDRESSES or PROXY_ALLOWED_NETWORKS would allow it)`,
    }
  return { verdict: 'allowed', addresses }
}

const REFUSED = 'must not point at a private, loopback, link-local or reserved address, or at the gateway’s own host'
const RESOLVES_REFUSED =
  'host name resolves to a private, loopback, link-local or reserved address, or to the gateway’s own host'

/**
 * Why a workspace's proxy URL may not be stored, or null: its shape, then its host. A name
 * that does not resolve now is accepted (the host is checked again before each connection).
 * The same words for a private address and for the gateway host's own, so the answer says
 * nothing of which addresses the host has.
 */
export async function proxyUrlHostProblem(raw: string, guard: ProxyGuard): Promise<string | null> {
  const problem = proxyUrlProblem(raw)
  if (problem) return problem
  const { host } = parseProxyUrl(raw)
  const literal = ipaddr.isValid(host)
  if (!literal && proxyNameVerdict(host, guard.policy()) === 'allowed') return null
  const check = await checkProxyHost(host, guard)
  if (check.verdict !== 'refused') return null
  return literal || proxyNameVerdict(host, guard.policy()) === 'refused' ? REFUSED : RESOLVES_REFUSED
}

/** The gateway's guard: the operator's switches, PROXY_ALLOWED_NETWORKS parsed once, the host's addresses read at each check. */
export function createProxyGuard(options: {
  resolver: HostResolver
  allowPrivateAddresses: boolean
  allowedNetworks: readonly string[]
  ownAddresses: () => readonly string[]
}): ProxyGuard {
  const allowList = parseProxyAllowList(options.allowedNetworks)
  return {
    resolver: options.resolver,
    allowPrivateAddresses: options.allowPrivateAddresses,
    policy: () => ({
      allowPrivateAddresses: options.allowPrivateAddresses,
      allowList,
      ownAddresses: options.allowPrivateAddresses ? [] : options.ownAddresses(),
    }),
  }
}
