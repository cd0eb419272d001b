// Reference: `node` + Hono + @hono/node-server, one route, nothing else. Plain JS, no loader.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono().get('/health', (c) => c.json({ status: 'ok' }))
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: info.port })}\n`)
})
