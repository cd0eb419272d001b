import { lookup } from 'node:dns/promises'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/**
 * Turns a host name into every address it currently has. Injectable so tests can answer
 * any address for any name without touching DNS (and so nothing is ever contacted).
 */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every answer in resolver order. */
export const defaultResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true })
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }))
}
