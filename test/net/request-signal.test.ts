import { once } from 'node:events'
import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import { requestSignal } from '../../src/net/request-signal'
import { createWebhookSender } from '../../src/webhooks/sender'

/** What a long-lived signal keeps of the signals made from it with AbortSignal.any (Node's own set). */
const dependantsOf = (signal: AbortSignal): number => {
  const symbol = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals')
  return symbol ? ((signal as unknown as Record<symbol, Set<unknown>>)[symbol]?.size ?? 0) : 0
}

describe('a request’s abort signal', () => {
  it('aborts when the long-lived signal does, and after its timeout (only then timedOut)', async () => {
    const stop = new AbortController()
    const stopped = requestSignal(stop.signal, 60_000)
    stop.abort()
    expect(stopped.signal.aborted).toBe(true)
    expect(stopped.timedOut).toBe(false)
    stopped.release()

    const late = requestSignal(new AbortController().signal, 5)
    await once(late.signal, 'abort')
    expect(late.timedOut).toBe(true)
    expect((late.signal.reason as DOMException).name).toBe('TimeoutError')
  })

  it('once released, neither the long-lived signal nor the timer reaches it', async () => {
    const stop = new AbortController()
    const request = requestSignal(stop.signal, 5)
    request.release()
    await new Promise((resolve) => setTimeout(resolve, 20))
    stop.abort()
    expect(request.signal.aborted).toBe(false)
  })

  it('is aborted at once when the long-lived signal already was', () => {
    const stop = new AbortController()
    stop.abort()
    expect(requestSignal(stop.signal, 1_000).signal.aborted).toBe(true)
  })

  it('leaves nothing on the gateway’s stop signal after hundreds of webhook deliveries', async () => {
    const server = createServer((_, res) => res.writeHead(204).end()).listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as { port: number }
    const sender = createWebhookSender({
      allowHttp: true,
      allowPrivateAddresses: true,
      timeoutMs: 5_000,
      endpointConcurrency: 4,
    })
    const stop = new AbortController()
    try {
      for (let i = 0; i < 300; i++) {
        const answer = await sender.post(
          { url: `http://127.0.0.1:${port}/hook`, headers: { 'content-type': 'application/json' }, body: '{}' },
          stop.signal,
        )
        expect(answer.delivered).toBe(true)
      }
      expect(dependantsOf(stop.signal)).toBe(0)
    } finally {
      sender.close()
      server.close()
    }
  })
})
