import { createRoute, z } from '@hono/zod-openapi'
import { streamSSE } from 'hono/streaming'
import { bearerSecurity, errorResponses } from '../../../../openapi/route'
import type { GatewayContext } from '../../../../services/context'
import { assertScope, eventsAfter, startPosition, type EventScope } from '../../../../services/events/read'
import { validationError } from '../../../../services/validation-error'
import type { EventStreams } from '../../../event-streams'
import { credentialEnded, msUntilExpiry } from '../../../request-credential'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

/** How often a stream looks for new events in the outbox; the bound on how late one arrives. */
const POLL_MS = 250
/** Events written per read; a backlog goes out in batches, each awaiting the client. */
const BATCH = 100
/** A comment line this often keeps proxies (and Bun's idle timeout) from closing a quiet stream. */
const HEARTBEAT_MS = 8_000

export const EventStreamQuery = z.object({
  sessionId: z.string().min(1).max(100).optional().meta({ description: 'Only this session’s events.' }),
})

export const eventStreamRoute = createRoute({
  operationId: 'streamEvents',
  method: 'get',
  path: '/v1/events',
  tags: ['Events'],
  summary: 'The workspace’s events as a live Server-Sent Events stream',
  description:
    'The same events and JSON as webhook deliveries (one `data:` line each; `event:` is the type, `id:` the eventId), ' +
    'read from the outbox as they are written. Send `Last-Event-ID` to resume after an event (EventSource does it by itself); ' +
    'without it the stream starts with the next event. A comment line every 8 s keeps it open through proxies. ' +
    'Events a session’s webhookEvents or webhookMessages: false leave out are not written, so they are not here either. ' +
    'The stream ends with the credential it was opened with: within a poll (250 ms) of its API key being revoked, ' +
    'by any process, and at a JWT’s `exp`, after a last comment line (`: credential revoked` or `: credential expired`); ' +
    'reconnecting with the same credential is then a 401.',
  security: bearerSecurity,
  request: {
    query: EventStreamQuery,
    headers: z.object({
      'last-event-id': z.string().max(100).optional().meta({ description: 'The eventId after which to resume.' }),
    }),
  },
  responses: {
    200: { description: 'The stream', content: { 'text/event-stream': { schema: z.string() } } },
    ...errorResponses([...LOOKUP_ERRORS, 'rate_limited']),
  },
})

export const eventStreamEndpoint = (ctx: GatewayContext, streams: EventStreams) =>
  createRouter().openapi(eventStreamRoute, (c) => {
    const scope: EventScope = { workspaceId: c.get('workspace').id, sessionId: c.req.valid('query').sessionId }
    assertScope(ctx, scope)
    const lastEventId = c.req.valid('header')['last-event-id']
    if (lastEventId !== undefined && !/^[\w-]+$/.test(lastEventId)) {
      throw validationError([{ path: 'Last-Event-ID', message: 'must be an eventId (evt_…)' }])
    }
    let after = startPosition(ctx, scope, lastEventId)
    const credential = c.get('authenticatedBy')
    const release = streams.open(scope.workspaceId)
    return streamSSE(c, async (stream) => {
      stream.onAbort(release)
      const ending = streams.ending
      let lastWrite = Date.now()
      try {
        while (!stream.aborted && !ending.aborted) {
          // Checked in the same turn as the read below: no event is read for a credential already ended.
          const ended = credentialEnded(ctx.credentials, credential)
          if (ended) {
            await stream.write(`: credential ${ended}\n\n`)
            break
          }
          const batch = eventsAfter(ctx, scope, after, BATCH)
          for (const event of batch) {
            await stream.writeSSE({ id: event.id, event: event.type, data: event.body })
            after = event.position
            lastWrite = Date.now()
          }
          if (batch.length === BATCH) continue
          if (Date.now() - lastWrite >= HEARTBEAT_MS) {
            await stream.write(': keep-alive\n\n')
            lastWrite = Date.now()
          }
          await sleepUnless(ending, Math.min(POLL_MS, msUntilExpiry(credential)))
        }
      } finally {
        release()
      }
    })
  })

function sleepUnless(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
