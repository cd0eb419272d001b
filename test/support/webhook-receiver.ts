import { resolveConfig, type WebhookConfig } from '../../src/config'
import { startLoopbackServer } from './loopback-server'
import { Webhook } from 'standardwebhooks'
import { pollUntil } from './poll'

export interface ReceivedRequest {
  path: string
  headers: Record<string, string>
  raw: string
  at: number
  /** The receiver's clockSkewMs when it arrived. */
  skewMs: number
}

export interface WebhookEvent {
  type: string
  eventId: string
  timestamp: string
  sessionId: string
  sequence: number
  data: any
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>/<path> */
  url(path?: string): string
  /** Every request in arrival order, answered or not. */
  requests: ReceivedRequest[]
  /** How to answer a request (status code; default 200) and how long to wait first. */
  respond: (request: ReceivedRequest) => number
  delayMs: (request: ReceivedRequest) => number
  /**
   * How far the gateway's clock is set ahead of the real one (tests that move it an hour on):
   * each request's signature timestamp is checked against its arrival time plus this.
   */
  clockSkewMs: number
  /**
   * The events that arrived on `path` and were answered 2xx, each verified with the official
   * `standardwebhooks` package against `secret` (throws on any bad signature or mismatched id).
   */
  events(path: string, secret: string, since?: number): WebhookEvent[]
  /** Polls until `predicate` holds for the verified events of `path`. */
  waitFor(
    path: string,
    secret: string,
    predicate: (events: WebhookEvent[]) => boolean,
    options?: { timeoutMs?: number; since?: number },
  ): Promise<WebhookEvent[]>
  close(): Promise<void>
}

/** A real local HTTP endpoint for webhook tests, on loopback only. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = []
  const accepted = new WeakSet<ReceivedRequest>()
  const receiver: WebhookReceiver = {
    url: (path = 'hook') => server.url(`/${path}`),
    requests,
    respond: () => 200,
    delayMs: () => 0,
    clockSkewMs: 0,
    events(path, secret, since = 0) {
      const verifier = new Webhook(secret)
      return requests
        .filter((r) => r.path === `/${path}` && accepted.has(r) && r.at >= since)
        .map((r) => {
          const event = (r.skewMs === 0 ? verifier.verify(r.raw, r.headers) : verifySkewed(verifier, r)) as WebhookEvent
          if (event.eventId !== r.headers['webhook-id']) throw new Error('webhook-id differs from the body’s eventId')
          return event
        })
    },
    waitFor: (path, secret, predicate, { timeoutMs = 10_000, since = 0 } = {}) =>
      pollUntil(() => receiver.events(path, secret, since), predicate, {
        timeoutMs,
        intervalMs: 20,
        what: `webhook events on /${path} to match`,
      }),
    close: () => server.close(),
  }
  const server = await startLoopbackServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const request: ReceivedRequest = {
        path: req.url ?? '/',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        raw: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        skewMs: receiver.clockSkewMs,
      }
      requests.push(request)
      const status = receiver.respond(request)
      setTimeout(() => {
        if (status >= 200 && status < 300) accepted.add(request)
        res.writeHead(status).end()
      }, receiver.delayMs(request))
    })
  })
  return receiver
}

/**
 * What `Webhook.verify` checks, with the timestamp tolerance (5 min) taken around the gateway's
 * moved clock at arrival instead of the real time: one of the signatures must be this secret's.
 */
function verifySkewed(verifier: Webhook, request: ReceivedRequest): unknown {
  const id = request.headers['webhook-id']!
  const timestamp = Number(request.headers['webhook-timestamp'])
  if (Math.abs(timestamp - (request.at + request.skewMs) / 1000) > 300) throw new Error('timestamp outside tolerance')
  const expected = verifier.sign(id, new Date(timestamp * 1000), request.raw)
  if (!request.headers['webhook-signature']!.split(' ').includes(expected)) throw new Error('no matching signature')
  return JSON.parse(request.raw)
}

/** Gateway config for tests whose webhooks go to a loopback receiver (the operator's switches on, quick retries). */
export const loopbackWebhooks = {
  webhookAllowHttp: true,
  allowPrivateAddresses: true,
}

/** Webhook timing for tests: quick retries, the rest as the defaults. */
export const fastWebhooks = (overrides: Partial<WebhookConfig> = {}): WebhookConfig => ({
  ...resolveConfig().webhooks,
  retryBaseMs: 50,
  retryMaxMs: 200,
  timeoutMs: 2_000,
  ...overrides,
})
