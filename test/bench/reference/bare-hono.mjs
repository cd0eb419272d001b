// Reference: `node` + Hono + @hono/node-server, nothing else. Plain JS, no loader.
// GET /health answers {"status":"ok"}; with BODY_FILE set, GET /same-body answers that file's
// JSON (the gateway's own session list), so the body's size is taken out of a comparison.
import { readFileSync } from 'node:fs'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono().get('/health', (c) => c.json({ status: 'ok' }))
if (process.env.BODY_FILE) {
  const body = JSON.parse(readFileSync(process.env.BODY_FILE, 'utf8'))
  app.get('/same-body', (c) => c.json(body))
}
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: info.port })}\n`)
})
