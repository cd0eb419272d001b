import { afterEach, describe, expect, it } from 'vitest'
import { pinnedPoster } from '../../src/perf/pinned-poster'
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server'

describe('pinned poster (perf/pinned-poster.ts)', () => {
  let server: LoopbackServer | undefined
  afterEach(() => server?.close())

  it('posts through undici’s pools on Node, kept alive, to the pinned address', async () => {
    const seen: { host?: string; body: string }[] = []
    server = await startLoopbackServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => {
        body += chunk
      })
      request.on('end', () => {
        seen.push({ host: request.headers.host, body })
        response.writeHead(202).end()
      })
    })
    const poster = pinnedPoster(1)
    expect(poster.client).toBe('undici')
    const url = new URL(`http://hooks.invalid:${server.port}/hook`)
    const pinned = { address: '127.0.0.1', family: 4 as const }
    for (const body of ['{"n":1}', '{"n":2}', '{"n":3}']) {
      const answer = await poster.post(url, pinned, { headers: {}, body, signal: new AbortController().signal })
      expect(answer).toEqual({ statusCode: 202 })
    }
    poster.close()
    expect(seen).toEqual(
      ['{"n":1}', '{"n":2}', '{"n":3}'].map((body) => ({ host: `hooks.invalid:${server!.port}`, body })),
    )
    expect(server.connections).toBe(1)
  })
})
