import { networkInterfaces } from 'node:os'

/**
 * Every address of this host's network interfaces (loopback included), read now: interfaces
 * come and go (DHCP, VPNs, containers), so each proxy check asks again. Cheap: no I/O.
 */
export function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address))
}
