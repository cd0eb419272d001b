import net from 'node:net'
import ipaddr from 'ipaddr.js'

export interface NetworkGuard {
  /** Every address a socket was about to connect to, in order (loopback or not). */
  readonly targets: string[]
  /** Addresses that were stopped because they are not loopback: must stay empty. */
  readonly blocked: string[]
  restore(): void
}

const isLoopback = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback'

/**
 * Makes this test process unable to open a TCP connection anywhere but loopback, and
 * records every connection target. Tests feed the fetcher resolvers that answer 10.x or
 * 169.254.169.254; if the guard under test ever failed, this stops the packet and says so.
 */
export function loopbackOnlyNetwork(): NetworkGuard {
  const targets: string[] = []
  const blocked: string[] = []
  const original = net.Socket.prototype.connect
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0]
    const options = (
      typeof first === 'object' && first !== null ? first : { host: args[1] }
    ) as net.TcpSocketConnectOpts
    const host = options.host ?? 'localhost'
    if (ipaddr.isValid(host)) {
      targets.push(host)
      if (!isLoopback(host)) {
        blocked.push(host)
        throw new Error(`test network guard: refused to connect to ${host}`)
      }
    } else if (options.lookup) {
      const lookup = options.lookup
      options.lookup = ((hostname: string, lookupOptions: object, callback: (...a: unknown[]) => void) =>
        lookup(
          hostname,
          lookupOptions as never,
          ((error: Error | null, address: unknown, family?: number) => {
            const answers = (Array.isArray(address) ? address : [{ address, family }]) as { address: string }[]
            for (const answer of answers) targets.push(answer.address)
            const bad = answers.find((answer) => !isLoopback(answer.address))
            if (!error && bad) {
              blocked.push(bad.address)
              return callback(new Error(`test network guard: refused to connect to ${bad.address}`))
            }
            callback(error, address, family)
          }) as never,
        )) as net.LookupFunction
    }
    return original.apply(this, args as never)
  } as typeof original
  const restore = () => {
    net.Socket.prototype.connect = original
  }
  return { targets, blocked, restore }
}
