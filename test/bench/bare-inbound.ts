/**
 * The inbound bench's reference, in its own process: bare Baileys sockets (bare-sockets.ts)
 * logged in with every linked session of the stopped gateway's file (DATABASE_PATH) to the simulator
 * (WS_URL), counting each bench text when Baileys emits it (inbound-runs.ts): what receiving
 * costs with no record, no event, no webhook. Prints `{"port"}` once every socket is open;
 * `GET /stats/<run>` reports a run.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { and, eq } from 'drizzle-orm'
import { waAuth } from '../../src/db/schema'
import { openStoredSockets } from './bare-sockets'
import { BENCH_TEXT, inboundRuns } from './inbound-runs'

const ANCHORED_TEXT = new RegExp(`^${BENCH_TEXT.source}$`)

const database = await openDatabase(process.env.DATABASE_PATH!)
// Every session linked to an account (the bench's seed also has one that never was).
const sessionIds = database
  .select({ id: waAuth.sessionId })
  .from(waAuth)
  .where(and(eq(waAuth.category, 'creds'), eq(waAuth.keyId, '')))
  .all()
  .map((row) => row.id)
const { sockets } = await openStoredSockets(database, sessionIds, process.env.WS_URL!)
const runs = inboundRuns()
sockets.forEach((socket, i) => {
  socket.ev.on('messages.upsert', ({ messages, type }) => {
    if (type !== 'notify') return
    const at = Date.now()
    for (const message of messages) {
      const text = message.message?.conversation ?? message.message?.extendedTextMessage?.text
      const match = text ? ANCHORED_TEXT.exec(text) : null
      if (match && message.key.id) runs.count(sessionIds[i]!, message.key.id, match, at)
    }
  })
})

const server = http.createServer((req, res) => {
  const path = req.url ?? '/'
  if (req.method === 'GET' && path.startsWith('/stats/'))
    return void res.writeHead(200).end(JSON.stringify(runs.report(path.slice('/stats/'.length))))
  res.writeHead(404).end()
})
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })))
process.once('SIGTERM', () => {
  for (const socket of sockets) socket.end(undefined)
  closeDatabase(database)
  process.exit(0)
})
