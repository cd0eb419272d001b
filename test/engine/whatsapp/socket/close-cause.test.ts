import { describe, expect, it } from 'vitest'
import { closeCause } from '../../../../src/engine/whatsapp/socket/close-cause'

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

  it('tells a proxy that did not answer from one that refused, before the WebSocket opened', () => {
    const refused = { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' }
    expect(closeCause({ ...proxied, code: 500, message: 'WebSocket Error (x)', data: refused })).toBe(
      'proxy_unreachable',
    )
    expect(closeCause({ ...proxied, message: 'WebSocket Error (getaddrinfo ENOTFOUND proxy.invalid)' })).toBe(
      'proxy_unreachable',
    )
    expect(closeCause({ ...proxied, message: 'WebSocket Error (Proxy connection timed out)' })).toBe(
      'proxy_unreachable',
    )
    expect(closeCause({ ...proxied, message: 'WebSocket Error (Unexpected server response: 407)' })).toBe(
      'proxy_refused',
    )
    expect(closeCause({ ...proxied, message: 'WebSocket Error (Socks5 Authentication failed)' })).toBe('proxy_refused')
  })

  it('blames nothing once the WebSocket opened, or without a proxy', () => {
    expect(closeCause({ ...proxied, reachedServer: true, code: 428, message: 'Connection Terminated' })).toBeUndefined()
    expect(closeCause({ ...direct, reachedServer: false, code: 428, data: { code: 'ECONNREFUSED' } })).toBeUndefined()
  })
})
