/**
 * The inbound bench's webhook receiver, in its own process: verifies every signature
 * (standardwebhooks, a secret per path, set by `POST /secrets`), and for each `message.received`
 * whose text is "<run> <index> <epoch ms>" (test/wa-sim/control-bench.ts) counts it once per
 * messageId, takes its latency (arrival − the time in the text; same machine, same clock) and
 * checks per session that both `sequence` and the index only grow. `GET /stats/<run>` reports
 * a run; answers 204 to every delivery.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

interface Run {
  ids: Set<string>
  duplicates: number
  outOfOrder: number
  latencies: number[]
  firstAt: number
  lastAt: number
  lastIndex: Map<string, number>
}

const verifiers = new Map<string, Webhook>()
const runs = new Map<string, Run>()
const lastSequence = new Map<string, number>()
let badSignatures = 0
let sequenceOutOfOrder = 0
let otherEvents = 0

const TEXT = /"([a-z]+) (\d+) (\d{13})"/

const runOf = (name: string): Run => {
  let run = runs.get(name)
  if (!run) {
    run = { ids: new Set(), duplicates: 0, outOfOrder: 0, latencies: [], firstAt: 0, lastAt: 0, lastIndex: new Map() }
    runs.set(name, run)
  }
  return run
}

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
  const match = event.type === 'message.received' ? TEXT.exec(raw) : null
  if (!match) return void otherEvents++
  const run = runOf(match[1]!)
  const id = event.data.messageId!
  if (run.ids.has(id)) return void run.duplicates++
  run.ids.add(id)
  const index = Number(match[2])
  if (index <= (run.lastIndex.get(event.sessionId) ?? -1)) run.outOfOrder++
  run.lastIndex.set(event.sessionId, index)
  run.latencies.push(at - Number(match[3]))
  if (!run.firstAt) run.firstAt = at
  run.lastAt = at
}

function report(name: string) {
  const run = runOf(name)
  const sorted = [...run.latencies].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  return {
    unique: run.ids.size,
    duplicates: run.duplicates,
    outOfOrder: run.outOfOrder,
    firstAt: run.firstAt,
    lastAt: run.lastAt,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: sorted.at(-1) ?? 0,
    badSignatures,
    sequenceOutOfOrder,
    otherEvents,
  }
}

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
