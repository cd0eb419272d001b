import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setHeaderCheaply } from '../../src/perf/node-response-header'
import { serve, type RunningServer } from '../../src/runtime/serve'
import { isBun } from '../../src/runtime/detect'

/**
 * The header set on Node's own response: the client gets it together with the route's own
 * headers, and Hono's response never holds it (that is the saving); elsewhere it is a Hono header.
 */
describe('setHeaderCheaply', () => {
  let seenByHono: (string | null)[] = []
  const app = new Hono()
    .use(async (c, next) => {
      setHeaderCheaply(c, 'X-Cheap', 'yes')
      await next()
      seenByHono.push(c.res.headers.get('X-Cheap'))
    })
    .get('/', (c) => c.json({ ok: true }, 200, { 'X-Route': 'own' }))
  let server: RunningServer

  beforeAll(async () => {
    server = await serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  })
  afterAll(() => server.close())

  it('reaches the client beside the route’s headers, served by the runtime’s server', async () => {
    seenByHono = []
    const response = await fetch(`http://127.0.0.1:${server.port}/`)
    expect(response.headers.get('x-cheap')).toBe('yes')
    expect(response.headers.get('x-route')).toBe('own')
    expect(await response.json()).toEqual({ ok: true })
    // On Node it went onto Node's response, not into a Headers object; Bun has no such response.
    expect(seenByHono).toEqual([isBun() ? 'yes' : null])
  })

  it('is an ordinary Hono header where there is no Node response (app.request, Workers)', async () => {
    seenByHono = []
    const response = await app.request('/')
    expect(response.headers.get('x-cheap')).toBe('yes')
    expect(response.headers.get('x-route')).toBe('own')
    expect(seenByHono).toEqual(['yes'])
  })
})
