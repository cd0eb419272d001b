import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway'
import { createLogger } from '../../../src/logger'
import { serve, type RunningServer } from '../../../src/runtime/serve'
import { startTestGateway, type TestGateway } from '../../support/gateway'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

interface LogLine {
  msg: string
  requestId: string
  method: string
  path: string
  status: number
  durationMs: number
}

/**
 * Every request gets an id, answered in X-Request-Id and written in its one access log line.
 * Served by the runtime's own HTTP server (on Node the header goes onto Node's response) and
 * through `app.request` (a Hono header), with the gateway's real logger capturing its lines.
 */
describe('request ids and the access log', () => {
  const written: string[] = []
  let started: TestGateway
  let gateway: Gateway
  let server: RunningServer
  let key: string
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`
  const linesOf = (requestId: string) =>
    written.map((text) => JSON.parse(text) as LogLine).filter((line) => line.requestId === requestId)

  beforeAll(async () => {
    started = await startTestGateway({
      logger: createLogger('info', { write: (text: string) => void written.push(text) }),
    })
    ;({ gateway, key } = started)
    server = await serve({ fetch: gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
  })
  afterAll(async () => {
    await server.close()
    await started.close()
  })

  it('answers a fresh id over HTTP and logs it with method, path, status and duration', async () => {
    const response = await fetch(url('/v1/workspace'), { headers: { authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    const requestId = response.headers.get('x-request-id')!
    expect(requestId).toMatch(UUID)
    const [line, ...more] = linesOf(requestId)
    expect(more).toEqual([])
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/v1/workspace', status: 200 })
    expect(line!.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('gives every request its own id', async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => (await fetch(url('/health'))).headers.get('x-request-id')))
    expect(new Set(ids).size).toBe(3)
  })

  it('keeps a usable client id and replaces one with unsafe characters or over 255 characters', async () => {
    const kept = await fetch(url('/health'), { headers: { 'x-request-id': 'trace-42_abc=' } })
    expect(kept.headers.get('x-request-id')).toBe('trace-42_abc=')
    expect(linesOf('trace-42_abc=')).toHaveLength(1)

    for (const unusable of ['two words', 'a'.repeat(256), 'quote"d']) {
      const replaced = await fetch(url('/health'), { headers: { 'x-request-id': unusable } })
      expect(replaced.headers.get('x-request-id')).toMatch(UUID)
      expect(linesOf(unusable)).toEqual([])
    }
  })

  it('answers the id on errors too, next to the error headers, and logs their status', async () => {
    const unauthorized = await fetch(url('/v1/workspace'), { headers: { authorization: 'Bearer wag_wrong' } })
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer')
    const requestId = unauthorized.headers.get('x-request-id')!
    expect(requestId).toMatch(UUID)
    expect(linesOf(requestId)).toMatchObject([{ status: 401, path: '/v1/workspace' }])

    const badJson = await fetch(url('/v1/session/connect'), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"sessionName":',
    })
    expect(badJson.status).toBe(400)
    expect(linesOf(badJson.headers.get('x-request-id')!)).toMatchObject([{ status: 400, method: 'POST' }])
  })

  it('never logs the query string or a credential', async () => {
    const response = await fetch(url('/v1/workspace?token=hunter2'), { headers: { authorization: `Bearer ${key}` } })
    const [line] = linesOf(response.headers.get('x-request-id')!)
    expect(line!.path).toBe('/v1/workspace')
    const everything = written.join('')
    expect(everything).not.toContain('hunter2')
    expect(everything).not.toContain(key)
  })

  it('answers the id through app.request as well, where there is no Node response to put it on', async () => {
    const response = await gateway.app.request('/health', { headers: { 'x-request-id': 'in-process-1' } })
    expect(response.headers.get('x-request-id')).toBe('in-process-1')
    const fresh = await gateway.app.request('/health')
    expect(fresh.headers.get('x-request-id')).toMatch(UUID)
    expect(linesOf('in-process-1')).toMatchObject([{ path: '/health', status: 200 }])
  })

  it('is readable by a parent app that mounts the gateway, after its next()', async () => {
    const seen: (string | undefined)[] = []
    const parent = new Hono<{ Variables: { requestId: string } }>()
      .use(async (c, next) => {
        await next()
        seen.push(c.get('requestId'))
      })
      .route('/wa', gateway.app)
    const mounted = await serve({ fetch: parent.fetch, port: 0, hostname: '127.0.0.1' })
    try {
      const response = await fetch(`http://127.0.0.1:${mounted.port}/wa/health`)
      expect(response.status).toBe(200)
      expect(seen).toEqual([response.headers.get('x-request-id')])
      expect(seen[0]).toMatch(UUID)
    } finally {
      await mounted.close()
    }
  })
})
