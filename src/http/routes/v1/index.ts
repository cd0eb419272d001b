import type { OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import type { ExtractSchema } from 'hono/types'
import type { AppEnv } from '../../env'
import type { HttpContext } from '../../context'
import { bearerAuth, handshakeAuth } from '../../middleware/bearer-auth'
import { jsonBody, METHODS_WITH_JSON } from '../../middleware/json-body'
import { rateLimit } from '../../middleware/rate-limit'
import { createRouter } from '../../router'
import { callRoutes } from './calls'
import { channelRoutes } from './channels'
import { chatRoutes } from './chats'
import { contactRoutes } from './contacts'
import { eventRoutes } from './events'
import { handshakeCredential } from './events/socket/frames'
import { eventSocketRoute } from './events/socket/route'
import { groupRoutes } from './groups'
import { labelRoutes } from './labels'
import { messageRoutes } from './messages'
import { sessionRoutes } from './sessions'
import { statusRoutes } from './status'
import { webhookRoutes } from './webhooks'
import { workspaceRoutes } from './workspace'

/**
 * Written out so the published `.d.ts` refers to each resource's routes by name (see HttpApp).
 * A resource added below must be added here too: `everyRouteTyped` fails to compile otherwise
 * (and to v1Endpoints in declarations.ts). A route is added to its resource's list only.
 */
export type V1Routes = OpenAPIHono<
  AppEnv,
  ExtractSchema<ReturnType<typeof sessionRoutes>> &
    ExtractSchema<ReturnType<typeof messageRoutes>> &
    ExtractSchema<ReturnType<typeof chatRoutes>> &
    ExtractSchema<ReturnType<typeof contactRoutes>> &
    ExtractSchema<ReturnType<typeof workspaceRoutes>> &
    ExtractSchema<ReturnType<typeof webhookRoutes>> &
    ExtractSchema<ReturnType<typeof eventRoutes>> &
    ExtractSchema<ReturnType<typeof groupRoutes>> &
    ExtractSchema<ReturnType<typeof callRoutes>> &
    ExtractSchema<ReturnType<typeof statusRoutes>> &
    ExtractSchema<ReturnType<typeof channelRoutes>> &
    ExtractSchema<ReturnType<typeof labelRoutes>>
>

/**
 * Every /v1 route, behind bearer auth. The returned app's `openAPIRegistry` holds each
 * route's declaration: the OpenAPI document is built from it, so no route can be left out.
 */
export function v1Routes(ctx: HttpContext): V1Routes {
  return composeV1(ctx)
}

function composeV1(ctx: HttpContext) {
  const limit = rateLimit(ctx.config.rateLimitPerMinute)
  const v1 = createRouter()
  // A browser's WebSocket cannot send Authorization: the event socket's handshake has its own
  // auth (a subprotocol, or an auth frame once open; the same resolveBearer), and the same
  // per-minute limit when it carries a credential. Every other /v1 route: bearer auth, then the
  // limit, after auth so an invalid credential never gets a counter of its own.
  v1.use(eventSocketRoute.path, handshakeAuth(ctx, handshakeCredential), (c, next) =>
    c.get('authenticatedBy') ? limit(c, next) : next(),
  )
  // Marked by handshakeAuth rather than matched by path: a parent app may mount us under a prefix.
  v1.use('/v1/*', unlessHandshake(bearerAuth(ctx)), unlessHandshake(limit))
  v1.on(METHODS_WITH_JSON, '/v1/*', jsonBody())
  return v1
    .route('/', sessionRoutes(ctx))
    .route('/', messageRoutes(ctx))
    .route('/', chatRoutes(ctx))
    .route('/', contactRoutes(ctx))
    .route('/', workspaceRoutes(ctx))
    .route('/', webhookRoutes(ctx))
    .route('/', eventRoutes(ctx))
    .route('/', groupRoutes(ctx))
    .route('/', callRoutes(ctx))
    .route('/', statusRoutes(ctx))
    .route('/', channelRoutes(ctx))
    .route('/', labelRoutes(ctx))
}

/** Paths the router serves that V1Routes leaves out (typed clients would not see them): must be none. */
type Untyped = Exclude<keyof ExtractSchema<ReturnType<typeof composeV1>>, keyof ExtractSchema<V1Routes>>
const everyRouteTyped: [Untyped] extends [never] ? true : { missingFromV1Routes: Untyped } = true
void everyRouteTyped

/**
 * `middleware`, skipped on the event socket's handshake (it authenticated in-band). Written out
 * rather than hono/combine's except(), which composes a new chain on every request (bench:
 * `test/bench/throughput.ts`, authed requests per second).
 */
function unlessHandshake(middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => (c.get('handshake') === true ? next() : middleware(c, next))
}
