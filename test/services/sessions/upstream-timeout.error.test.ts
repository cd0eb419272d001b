import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonBody, startTestGateway, type TestGateway } from '../../support/gateway'

/** A "network" that accepts connections and never says a word. */
describe('connect when WhatsApp does not answer', () => {
  let silent: TcpServer
  let control: Server
  const sockets: Socket[] = []
  let t: TestGateway

  beforeAll(async () => {
    silent = createTcpServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const wsUrl = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}/ws/chat`
    control = createHttpServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ wsUrl, rootPublicKey: Buffer.alloc(32, 7).toString('base64'), mediaCaPem: '' }))
    })
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))
    t = await startTestGateway({
      config: { simulatorUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`, connectTimeoutMs: 500 },
    })
  })
  afterAll(async () => {
    await t.close()
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
    await new Promise((resolve) => control.close(resolve))
  })

  it('answers 504 upstream_timeout and leaves the session expired, ready to retry', async () => {
    const started = Date.now()
    const response = await t.request(
      '/v1/session/connect',
      jsonBody({ sessionName: 'mute', webhookUrl: 'https://hooks.invalid/x' }),
    )
    expect(response.status).toBe(504)
    expect(await response.json()).toMatchObject({ error: 'upstream_timeout', details: {} })
    expect(Date.now() - started).toBeLessThan(5_000)

    const { sessions } = (await (await t.request('/v1/session/all')).json()) as { sessions: any[] }
    expect(sessions).toMatchObject([{ sessionName: 'mute', status: 'expired', statusReason: 'upstream_timeout' }])
    // The name is free again and the gateway still answers.
    const retry = await t.request(
      '/v1/session/connect',
      jsonBody({ sessionName: 'mute', webhookUrl: 'https://hooks.invalid/x' }),
    )
    expect(retry.status).toBe(504)
    expect((await t.request('/health')).status).toBe(200)
  })
})
