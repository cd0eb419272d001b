import { describe, expect, it } from 'vitest'
import { closeCause, proxyFailureDetail } from '../../../../src/engine/whatsapp/socket/close-cause'

const direct = { viaProxy: false, reachedServer: true, probeFailed: false }
const proxied = { viaProxy: true, reachedServer: false, probeFailed: false }

describe('closeCause', () => {
  it('names a socket our liveness check closed, and one Baileys’ keep-alive closed, unresponsive', () => {
    expect(closeCause({ ...direct, probeFailed: true })).toBe('unresponsive')
    expect(closeCause({ ...direct, code: 408, message: 'Connection was lost' })).toBe('unresponsive')
    // 408 is also Baileys' timedOut (QR refs ran out): not a silent socket.
    expect(closeCause({ ...direct, code: 408, message: 'QR refs attempts ended' })).toBeUndefined()
  })

  it('names WhatsApp’s 405 an outdated version, proxied or not', () => {
    expect(closeCause({ ...direct, code: 405, message: 'Connection Failure' })).toBe('outdated_version')
    expect(closeCause({ ...proxied, reachedServer: true, code: 405 })).toBe('outdated_version')
  })

  it('says proxy_unreachable for anything that stopped a proxied socket before the WebSocket opened', () => {
    // A closed port, an unknown name, a timeout, a refusal and a service that is no proxy look
    // alike to the workspace: its proxy setting must not tell what listens where.
    const refused = { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' }
    for (const end of [
      { code: 500, message: 'WebSocket Error (x)', data: refused },
      { message: 'WebSocket Error (getaddrinfo ENOTFOUND proxy.invalid)' },
      { message: 'WebSocket Error (Proxy connection timed out)' },
      { message: 'WebSocket Error (Unexpected server response: 407)' },
      { message: 'WebSocket Error (Socks5 Authentication failed)' },
      { message: 'WebSocket Error (Received invalid Socks5 initial handshake)' },
      {},
    ])
      expect(closeCause({ ...proxied, ...end }), JSON.stringify(end)).toBe('proxy_unreachable')
  })

  it('keeps the detail for the operator’s log: the error code and the message', () => {
    expect(proxyFailureDetail({ message: 'WebSocket Error (x)', data: { code: 'ECONNREFUSED' } })).toBe(
      'ECONNREFUSED: WebSocket Error (x)',
    )
    expect(proxyFailureDetail({ message: 'WebSocket Error (Socks5 Authentication failed)' })).toBe(
      'WebSocket Error (Socks5 Authentication failed)',
    )
    expect(proxyFailureDetail({})).toBe('closed')
  })

  it('blames nothing once the WebSocket opened, or without a proxy', () => {
    expect(closeCause({ ...proxied, reachedServer: true, code: 428, message: 'Connection Terminated' })).toBeUndefined()
    expect(closeCause({ ...direct, reachedServer: false, code: 428, data: { code: 'ECONNREFUSED' } })).toBeUndefined()
  })
})
