/**
 * The inbound bench's webhook receiver, in its own process: verifies every signature
 * (standardwebhooks, a secret per path, set by `POST /secrets`), and for each `message.received`
 * whose text is "<run> <index> <epoch ms>" counts it (inbound-runs.ts) and checks per session
 * that `sequence` only grows. `GET /stats/<run>` reports
 * a run; answers 204 to every delivery.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { BENCH_TEXT, inboundRuns } from './inbound-runs'

const verifiers = new Map<string, Webhook>()
const runs = inboundRuns()
const lastSequence = new Map<string, number>()
let badSignatures = 0
let sequenceOutOfOrder = 0
let otherEvents = 0

// The text as the event's JSON quotes it.
const QUOTED_TEXT = new RegExp(`"${BENCH_TEXT.source}"`)

function receive(path: string, raw: string, headers: http.IncomingHttpHeaders, at: number): void {
  const verifier = verifiers.get(path)
  let event: { type: string; sessionId: string; sequence: number; data: { messageId?: string } }
  try {
    if (!verifier) throw new Error('no secret for this path')
    event = verifier.verify(raw, headers as Record<string, string>) as typeof event
  } catch {
    badSignatures++
    return
  }
  if (event.sequence <= (lastSequence.get(event.sessionId) ?? 0)) sequenceOutOfOrder++
  lastSequence.set(event.sessionId, event.sequence)
  const match = event.type === 'message.received' ? QUOTED_TEXT.exec(raw) : null
  if (!match) return void otherEvents++
  runs.count(event.sessionId, event.data.messageId!, match, at)
}

const report = (name: string) => ({ ...runs.report(name), badSignatures, sequenceOutOfOrder, otherEvents })

const server = http.createServer((req, res) => {
  const path = req.url ?? '/'
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const at = Date.now()
    const raw = Buffer.concat(chunks).toString('utf8')
    if (req.method === 'GET' && path.startsWith('/stats/'))
      return void res.writeHead(200).end(JSON.stringify(report(path.slice('/stats/'.length))))
    if (req.method === 'POST' && path === '/secrets') {
      for (const [hook, secret] of Object.entries(JSON.parse(raw) as Record<string, string>))
        verifiers.set(hook, new Webhook(secret))
      return void res.writeHead(204).end()
    }
    receive(path, raw, req.headers, at)
    res.writeHead(204).end()
  })
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })))
