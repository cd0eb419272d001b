import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

/**
 * The simulator's control URL answers its first GET /config with 503 (not up yet): that
 * connect fails, and the next one must ask again instead of failing until a restart.
 */
describe('a WA_SIMULATOR /config that fails once', () => {
  let t: SimulatedGateway
  let flaky: SimulatedGateway
  let proxy: http.Server
  let configRequests = 0

  beforeAll(async () => {
    t = await startSimulatedGateway()
    proxy = http.createServer(async (req, res) => {
      if (req.url === '/config' && configRequests++ === 0) return void res.writeHead(503).end('starting')
      const answer = await fetch(new URL(req.url ?? '/', t.control.url))
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()))
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    flaky = await startSimulatedGateway({ reuse: { sim: t.sim, control: t.control }, config: { simulatorUrl: url } })
  })
  afterAll(async () => {
    await flaky.stopGateway()
    await new Promise((resolve) => proxy.close(resolve))
    await t.close()
  })

  it('fails the first connect, then reads /config again and pairs', async () => {
    const first = await flaky.connect({ sessionName: 'early' })
    expect(first.status).toBeGreaterThanOrEqual(500)
    const second = await flaky.connect({ sessionName: 'early' })
    expect(second.status).toBe(200)
    expect(configRequests).toBe(2)
    t.sim.scan(second.body.qrCode, '15550018001')
    await flaky.waitForStatus(second.body.sessionId, 'connected')
  })
})
