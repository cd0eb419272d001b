import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'

/**
 * An optimisation (bench: authed `GET /v1/session/all` req/s, `test/bench/throughput.ts`).
 *
 * Sets a response header. On Node it goes straight onto Node's own response, which merges it
 * with whatever the route answers: a header set through Hono makes every response carry a
 * WHATWG Headers object, which cost a fifth of a small request's CPU. Elsewhere (Bun,
 * Workers, `app.request`) it is an ordinary Hono header.
 */
export function setHeaderCheaply(c: Context, name: string, value: string): void {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
  if (outgoing && !outgoing.headersSent) outgoing.setHeader(name, value)
  else c.header(name, value)
}
