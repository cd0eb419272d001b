import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSafeFetcher } from '../../src/net/safe-fetcher'
import { expectGatewayError } from '../support/expect-error'
import { startLocalServer, type LocalServer } from '../support/local-server'

let server: LocalServer
beforeAll(async () => {
  server = await startLocalServer()
})
afterAll(() => server.close())

const fetcher = () => createSafeFetcher({ allowPrivateAddresses: true, maxBytes: 5_000, timeoutMs: 500 })

describe('limits', () => {
  it('answers the body within the limits', async () => {
    const fetched = await fetcher().fetch(server.url('/hello'))
    expect(new TextDecoder().decode(fetched.bytes)).toBe('hello')
  })

  it('refuses a declared Content-Length over the limit with 413 payload_too_large', async () => {
    const error = await expectGatewayError(fetcher().fetch(server.url('/declared-big')), 'payload_too_large')
    expect(error.details).toEqual({ limitBytes: 5_000 })
  })

  it('cuts a chunked body off once it passes the limit', async () => {
    const error = await expectGatewayError(fetcher().fetch(server.url('/chunked-big')), 'payload_too_large')
    expect(error.details).toEqual({ limitBytes: 5_000 })
  })

  it('gives up on a server that never answers: 422 media_unavailable naming the time limit', async () => {
    const started = Date.now()
    const error = await expectGatewayError(fetcher().fetch(server.url('/silent?sig=abc')), 'media_unavailable')
    expect(error.message).toMatch(/within 500 ms/)
    expect(error.details).toEqual({ url: server.url('/silent') })
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('turns a non-2xx answer into 422 media_unavailable with the status', async () => {
    const error = await expectGatewayError(fetcher().fetch(server.url('/teapot')), 'media_unavailable')
    expect(error.message).toMatch(/HTTP 418/)
  })

  it('turns a refused connection into 422 media_unavailable', async () => {
    const closed = await startLocalServer()
    const url = closed.url('/hello')
    await closed.close()
    const error = await expectGatewayError(fetcher().fetch(url), 'media_unavailable')
    expect(error.message).toMatch(/ECONNREFUSED/)
  })
})
