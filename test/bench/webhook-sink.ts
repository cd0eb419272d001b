/**
 * The bench's webhook receiver, in its own process (its own core): verifies every signature
 * with standardwebhooks, counts unique webhook-ids, answers 204. GET /stats reports.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

const verifier = new Webhook(process.env.SINK_SECRET!)
const ids = new Set<string>()
let requests = 0
let badSignatures = 0
let outOfOrder = 0
const lastSequence = new Map<string, number>()

const server = http.createServer((req, res) => {
  if (req.method === 'GET')
    return void res.writeHead(200).end(JSON.stringify({ requests, unique: ids.size, badSignatures, outOfOrder }))
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    requests++
    try {
      const event = verifier.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as {
        sessionId: string
        sequence: number
      }
      ids.add(req.headers['webhook-id'] as string)
      if (event.sequence <= (lastSequence.get(event.sessionId) ?? 0)) outOfOrder++
      lastSequence.set(event.sessionId, event.sequence)
    } catch {
      badSignatures++
    }
    res.writeHead(204).end()
  })
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })))
