import { createServer, connect, type Server, type Socket } from 'node:net'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { collectDefaultMetrics, Registry } from 'prom-client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { shareHandleWalks } from '../../src/perf/handle-gauges'

type Family = { name: string; help: string; metrics: { labels?: Record<string, string>; value: string }[] }

const scrape = async (registry: Registry) => parsePrometheusTextFormat(await registry.metrics()) as Family[]
const family = (families: Family[], name: string) => families.find((f) => f.name === name)!
const byType = (f: Family) => Object.fromEntries(f.metrics.map((m) => [m.labels!.type, Number(m.value)]))
const total = (f: Family) => Number(f.metrics[0]!.value)

/**
 * The handle and resource gauges of prom-client's defaults, each pair from one walk per scrape.
 * Node only: Bun's `_getActiveHandles` and `getActiveResourcesInfo` answer nothing (nor do
 * prom-client's own gauges there).
 */
describe('shareHandleWalks', () => {
  let server: Server
  const sockets: Socket[] = []

  beforeAll(async () => {
    let accepted = 0
    const allAccepted = new Promise((resolve) => {
      server = createServer(() => {
        if (++accepted === 20) resolve(undefined)
      }).listen(0, '127.0.0.1')
    })
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as { port: number }
    for (let i = 0; i < 20; i++) sockets.push(connect(port, '127.0.0.1'))
    await Promise.all([allAccepted, ...sockets.map((s) => new Promise((resolve) => s.once('connect', resolve)))])
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })

  it('answers what prom-client’s own gauges answer, under the same names and help', async () => {
    const plain = new Registry()
    collectDefaultMetrics({ register: plain })
    const shared = new Registry()
    collectDefaultMetrics({ register: shared })
    shareHandleWalks(shared)

    const [before, after] = [await scrape(plain), await scrape(shared)]
    for (const name of [
      'nodejs_active_handles',
      'nodejs_active_handles_total',
      'nodejs_active_resources',
      'nodejs_active_resources_total',
    ]) {
      expect(family(after, name).help).toBe(family(before, name).help)
    }
    // 20 client sockets and their 20 accepted ends, besides whatever else the worker holds; the
    // sockets are stable between the two scrapes (immediates and timers come and go).
    const handles = [before, after].map((f) => byType(family(f, 'nodejs_active_handles')))
    expect(handles[1]!.Socket).toBeGreaterThanOrEqual(40)
    expect(handles[1]!.Socket).toBe(handles[0]!.Socket)
    expect(handles[1]!.Server).toBe(handles[0]!.Server)
    const resources = [before, after].map((f) => byType(family(f, 'nodejs_active_resources')))
    expect(resources[1]!.TCPSocketWrap).toBeGreaterThanOrEqual(40)
    expect(resources[1]!.TCPSocketWrap).toBe(resources[0]!.TCPSocketWrap)
    const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)
    expect(total(family(after, 'nodejs_active_handles_total'))).toBe(sum(handles[1]!))
    expect(total(family(after, 'nodejs_active_resources_total'))).toBe(sum(resources[1]!))
  })

  it('walks the handles and the resources once a scrape each, and anew at the next scrape', async () => {
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    shareHandleWalks(registry)
    const handles = vi.spyOn(process as unknown as { _getActiveHandles: () => unknown[] }, '_getActiveHandles')
    const resources = vi.spyOn(process, 'getActiveResourcesInfo')
    try {
      await scrape(registry)
      expect(handles).toHaveBeenCalledTimes(1)
      expect(resources).toHaveBeenCalledTimes(1)

      sockets.pop()!.destroy()
      await new Promise((resolve) => setTimeout(resolve, 50))
      const next = await scrape(registry)
      expect(handles).toHaveBeenCalledTimes(2)
      expect(resources).toHaveBeenCalledTimes(2)
      // The second scrape saw the socket gone (its own walk, not the first one's answer).
      expect(total(family(next, 'nodejs_active_handles_total'))).toBe(handles.mock.results[1]!.value.length)
      expect(handles.mock.results[1]!.value.length).toBeLessThan(handles.mock.results[0]!.value.length)
    } finally {
      handles.mockRestore()
      resources.mockRestore()
    }
  })
})
