import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from '../../src/runtime/serve'
import { startTestGateway, type TestGateway } from '../support/gateway'
import { rawConnection } from '../support/raw-http'
import { setTimeout as sleep } from 'node:timers/promises'

const BODY_LIMIT = 200_000
const big = (bytes: number) => JSON.stringify({ sessionName: 'a', pad: 'x'.repeat(bytes) })

/**
 * A refusal answered before the body was read leaves the rest of the body on the socket; the
 * server then drops the connection, and a keep-alive client that believed the answer's
 * `Connection: keep-alive` had its next request reset. Over a real socket, one connection per case.
 */
describe('refusing a large request body', () => {
  let t: TestGateway
  let server: RunningServer
  beforeAll(async () => {
    t = await startTestGateway({ config: { bodyLimitBytes: BODY_LIMIT } })
    server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
  })
  afterAll(async () => {
    await server.close()
    await t.close()
  })

  const json = { 'content-type': 'application/json' }
  it.each<{ status: number; headers: Record<string, string>; body: string }>([
    { status: 413, headers: json, body: big(300_000) },
    { status: 401, headers: json, body: big(150_000) },
    { status: 415, headers: { 'content-type': 'application/json; charset=latin1' }, body: big(150_000) },
  ])('answers $status with Connection: close and closes the connection', async ({ status, headers, body }) => {
    const auth: Record<string, string> = status === 401 ? {} : { authorization: `Bearer ${t.key}` }
    const connection = await rawConnection(server.port)
    const answer = await connection.request('POST', '/v1/session/connect', { ...auth, ...headers }, body)
    expect(answer.status).toBe(status)
    expect(answer.headers.connection).toBe('close')
    await connection.closed
  })

  it('keeps the connection of a large body it read (a validation error), and answers the next request on it', async () => {
    const connection = await rawConnection(server.port)
    const first = await connection.request(
      'POST',
      '/v1/session/connect',
      { ...json, authorization: `Bearer ${t.key}` },
      big(150_000),
    )
    expect(first.status).toBe(400)
    expect(first.headers.connection).not.toBe('close') // Node says keep-alive; Bun leaves HTTP/1.1's default unsaid
    await sleep(1_000) // past the server's 500 ms drain window
    expect((await connection.request('GET', '/health')).status).toBe(200)
    connection.destroy()
  })
})
