import { createRoute, z } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses } from '../../../../../openapi/route'
import { assertScope } from '../../../../../services/events/read'
import { validationError } from '../../../../../services/validation-error'
import type { HttpContext } from '../../../../context'
import { identityOf } from '../../../../middleware/bearer-auth'
import { bearerToken } from '../../../../middleware/bearer-token'
import { createRouter } from '../../../../router'
import { LOOKUP_ERRORS } from '../../error-lists'
import { EVENTS_PROTOCOL, readProtocols } from './frames'
import { admit, socketEvents } from './session'

const EVENT_ID = /^[\w-]+$/

export const EventSocketQuery = z.object({
  sessionId: z.string().min(1).max(100).optional().meta({ description: 'Only this session’s events.' }),
  after: z
    .string()
    .max(100)
    .regex(EVENT_ID, 'must be an eventId (evt_…)')
    .optional()
    .meta({ description: 'The eventId after which to resume (as Last-Event-ID on GET /v1/events).' }),
})

export const eventSocketRoute = createRoute({
  operationId: 'streamEventsWebSocket',
  method: 'get',
  path: '/v1/events/ws',
  tags: ['Events'],
  summary: 'The workspace’s events over a WebSocket',
  description:
    'The events of GET /v1/events over a WebSocket: one JSON text frame per event, ' +
    '`{"id":"evt_…","type":"message.received","data":{…}}`, `data` the very JSON a webhook delivery carries. ' +
    'The credential is never in the URL: offer the subprotocols `wag.events.v1, wag.bearer.<API key or JWT>` ' +
    '(the handshake selects `wag.events.v1` only), or send `Authorization: Bearer`, or open without one and send ' +
    '`{"type":"auth","token":"<API key or JWT>"}` as the first frame within 5 s. A `{"type":"ready"}` frame follows ' +
    'authentication; `{"type":"ping"}` every 8 s of quiet. With the credential in the handshake, refusals are the ' +
    'JSON errors below; after an auth frame they are close codes 4000 + the status (4401, 4404, 4429). ' +
    'The socket closes with 4401 within a poll (250 ms) of its API key being revoked or at a JWT’s `exp`, with 1001 ' +
    'when the gateway stops, 1008 when the client reads too slowly for 30 s, 1009 for a client frame over 16 KiB. ' +
    'Streams count against the same per-workspace limit as GET /v1/events.',
  security: bearerSecurity,
  request: {
    query: EventSocketQuery,
    headers: z.object({
      'sec-websocket-protocol': z
        .string()
        .optional()
        .meta({ description: '`wag.events.v1`, and `wag.bearer.<credential>` to authenticate in the handshake.' }),
      'last-event-id': z
        .string()
        .max(100)
        .regex(EVENT_ID, 'must be an eventId (evt_…)')
        .optional()
        .meta({ description: 'As `after`, for clients that can set headers.' }),
    }),
  },
  responses: {
    101: { description: 'Switching to the WebSocket protocol' },
    ...errorResponses([...LOOKUP_ERRORS, 'unauthorized', 'rate_limited']),
  },
})

/**
 * Behind handshakeAuth, not /v1's bearer auth (see v1Routes): a browser's WebSocket cannot send
 * `Authorization`, so the credential may be a subprotocol, or the first frame (see session.ts).
 */
export const eventSocketEndpoint = (ctx: HttpContext) =>
  createRouter().openapi(eventSocketRoute, async (c) => {
    const query = c.req.valid('query')
    const headers = c.req.valid('header')
    // handshakeAuth (see v1Routes) accepted the handshake's credential, if it had one.
    const identity = identityOf(c)
    // Another workspace's session is a 404 whatever else is wrong, as on every session route.
    if (identity) assertScope(ctx, { workspaceId: identity.workspace.id, sessionId: query.sessionId })
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      // Without a socket there is no auth frame to wait for: the 401 every /v1 route gives.
      if (!identity) bearerToken(c, '<API key>')
      throw validationError([{ path: 'Upgrade', message: 'this route answers WebSocket handshakes only' }])
    }
    const offered = readProtocols(headers['sec-websocket-protocol'])
    if (offered.token && !offered.protocol) {
      throw validationError([
        { path: 'Sec-WebSocket-Protocol', message: `offer ${EVENTS_PROTOCOL} beside the wag.bearer.<credential>` },
      ])
    }
    const request = { sessionId: query.sessionId, after: query.after ?? headers['last-event-id'] }
    const admission = identity ? admit(ctx, ctx.eventStreams, identity, request) : undefined
    const awaiting = identity ? undefined : ctx.eventStreams.awaitAuth()
    try {
      return (await ctx.upgradeWebSocket(c, socketEvents(ctx, ctx.eventStreams, request, admission, awaiting), {
        protocol: offered.protocol,
      })) as never
    } catch {
      // Hono's helpers throw when the server that handed the request over cannot upgrade it
      // (an embedder's server without acceptWebSockets): say so, not 500.
      admission?.release()
      awaiting?.()
      throw validationError([
        { path: 'Upgrade', message: 'this server does not serve WebSockets; read GET /v1/events (SSE) instead' },
      ])
    }
  })
