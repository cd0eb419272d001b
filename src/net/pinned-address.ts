import ipaddr from 'ipaddr.js'
import type { HostResolver, ResolvedAddress } from './host-resolver'
import { bareHost, isLocalName, isPrivateAddress } from './url-guard'

/** Why an address was refused; the fetcher turns it into a media_unavailable error. */
export class AddressRefused extends Error {
  override readonly name = 'AddressRefused'
}

/**
 * The one address a request to `url` may connect to: a literal IP as written, or the
 * first answer of the resolver, after every answer passed the check (a name with one
 * private answer among public ones is refused whole: getaddrinfo order is not ours to trust).
 * The caller connects to exactly this address, so DNS cannot answer differently later.
 */
export interface AddressPolicy {
  allowPrivateAddresses: boolean
  /** Exact addresses allowed even though private (an operator's internal media host). */
  allowAddresses?: readonly string[]
}

export async function pinnedAddress(url: URL, policy: AddressPolicy, resolver: HostResolver): Promise<ResolvedAddress> {
  const { allowPrivateAddresses } = policy
  const allowed = new Set((policy.allowAddresses ?? []).map(canonical))
  const refused = (address: string) =>
    !allowPrivateAddresses && isPrivateAddress(address) && !allowed.has(canonical(address))
  const host = bareHost(url)
  if (ipaddr.isValid(host)) {
    if (refused(host)) {
      throw new AddressRefused('the URL names a private, loopback or link-local address')
    }
    return { address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }
  }
  if (!allowPrivateAddresses && isLocalName(host)) {
    throw new AddressRefused('the URL names a local host name')
  }
  let answers: readonly ResolvedAddress[]
  try {
    answers = await resolver(host)
  } catch {
    throw new AddressRefused('the host name does not resolve')
  }
  const first = answers[0]
  if (!first) throw new AddressRefused('the host name does not resolve')
  if (answers.some((answer) => refused(answer.address))) {
    throw new AddressRefused('the host name resolves to a private, loopback or link-local address')
  }
  return first
}

function canonical(address: string): string {
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address
}
