/**
 * The Worker: the stateless front of the edge deployment. It serves /health and /openapi.json,
 * checks the deployment key and the JWT, and routes each /v1 request: to the workspace object
 * for workspace-level steps (session cap, contact-check quota, session index) and to the
 * session's object, which runs the same routes and services as the Node gateway.
 * The two seams where one request needs both objects: connect (cap, then socket) and contact
 * check (quota, then query). Everything else is a pass-through to one session object.
 */
import type { RouteConfig } from '@hono/zod-openapi'
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { requestId } from 'hono/request-id'
import { GatewayError, notFound } from '../errors'
import type { AppEnv } from '../http/env'
import { errorHandler, notFoundHandler } from '../http/error-handler'
import { bearerToken, unauthorized } from '../http/middleware/bearer-token'
import { deploymentKey } from '../http/middleware/deployment-key'
import { jsonBody } from '../http/middleware/json-body'
import { readJwtCredential } from '../http/middleware/jwt-credential'
import { createRouter } from '../http/router'
import { panelRoutes } from '../http/routes/panel'
import type { AnySessionLocator } from '../http/routes/session-locator'
import { checkContactsRoute } from '../http/routes/v1/contacts/check'
import { v1Declarations, v1Endpoints } from '../http/routes/v1/declarations'
import { connectSessionRoute } from '../http/routes/v1/sessions/connect'
import { deleteSessionRoute } from '../http/routes/v1/sessions/delete'
import { listSessionsRoute } from '../http/routes/v1/sessions/list'
import { createWorkspaceWebhookRoute } from '../http/routes/v1/webhooks/subscriptions-create'
import { deleteChatwootRoute } from '../http/routes/v1/sessions/chatwoot-delete'
import { getChatwootRoute } from '../http/routes/v1/sessions/chatwoot-get'
import { putChatwootRoute } from '../http/routes/v1/sessions/chatwoot-put'
import { deleteWorkspaceWebhookRoute } from '../http/routes/v1/webhooks/subscriptions-delete'
import { listWorkspaceWebhooksRoute } from '../http/routes/v1/webhooks/subscriptions-list'
import { updateWorkspaceWebhookRoute } from '../http/routes/v1/webhooks/subscriptions-update'
import { getWorkspaceRoute } from '../http/routes/v1/workspace/get'
import { EVENTS_PROTOCOL, readProtocols } from '../http/routes/v1/events/socket/frames'
import { eventSocketRoute } from '../http/routes/v1/events/socket/route'
import { validationError } from '../services/validation-error'
import { EXPIRES_HEADER, WORKSPACE_HEADER } from './event-sockets'
import { buildOpenApiDocument } from '../openapi/document'
import { nameUsedAsId } from '../services/sessions/view'
import { edgeConfig, sessionObjectName, type EdgeEnv } from './env'
import { createEdgeLogger } from './logger'
import { probePlatformBugs } from './platform-shims'
import { routeSignedMedia } from './signed-media'
import { signedMediaRoute } from '../http/routes/media/signed'
import type { Refusal } from './workspace-object'

export { SessionObject } from './session-object'
export { WorkspaceObject } from './workspace-object'

type Vars = AppEnv['Variables'] & {
  credential: { workspace: string; plan: 'free' | 'paid'; expiresAtMs: number }
}
type WorkerEnv = { Bindings: EdgeEnv; Variables: Vars }

const throwRefusal = (refusal: Refusal): never => {
  const { code, message, details, headers } = refusal.error
  throw new GatewayError(code, message, details, headers)
}

const workspaceObject = (env: EdgeEnv, workspace: string) => env.WORKSPACES.get(env.WORKSPACES.idFromName(workspace))
const sessionObject = (env: EdgeEnv, workspace: string, sessionName: string) =>
  env.SESSIONS.get(env.SESSIONS.idFromName(sessionObjectName(workspace, sessionName)))

/** The request again, to forward (its body was read here), with the body given. */
const forward = (request: Request, body?: string) =>
  new Request(request.url, { method: request.method, headers: request.headers, body })

/** For finding a sessionId only: a body that is not JSON is the session object's 400 to give. */
function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * Declared routes the Worker answers itself, with the workspace object (the session cap, the
 * quota, the index) and the session objects it names. Every other declared route is one
 * session's: it is forwarded to that session's object.
 */
const EVENT_SOCKET_PATH = eventSocketRoute.path

const WORKSPACE_LEVEL = new Set<RouteConfig>([
  connectSessionRoute,
  listSessionsRoute,
  getWorkspaceRoute,
  checkContactsRoute,
])

/** Where each declared route's requests name their session (`session-locator.ts`). */
const locators = new Map<RouteConfig, AnySessionLocator>(v1Endpoints.map(({ route, session }) => [route, session]))

/**
 * A workspace's own webhooks would get every session's events, but each session's object keeps
 * its own store and outbox: nothing there could fan them out. Refused, saying what works instead.
 */
const WORKSPACE_WEBHOOKS = new Set<RouteConfig>([
  createWorkspaceWebhookRoute,
  listWorkspaceWebhooksRoute,
  updateWorkspaceWebhookRoute,
  deleteWorkspaceWebhookRoute,
])

/**
 * Routes the edge refuses with a 400 saying why (docs/edge.md): the workspace's own webhooks
 * (each session's events are in its own object's store; no object holds the workspace's list)
 * and Chatwoot (its sink and callback need the Node network path and a callback URL the
 * Worker does not route).
 */
const REFUSED_ON_THE_EDGE = new Map<RouteConfig, { message: string; field: string }>([
  ...[...WORKSPACE_WEBHOOKS].map(
    (route) =>
      [
        route,
        {
          message:
            'Workspace webhooks are not available on the edge deployment (each session has its own store); add the webhook to each session with POST /v1/session/{id}/webhooks',
          field: 'workspace webhooks are not available on the edge deployment',
        },
      ] as const,
  ),
  ...[putChatwootRoute, getChatwootRoute, deleteChatwootRoute].map(
    (route) =>
      [
        route,
        {
          message:
            'Chatwoot is not available on the edge deployment; run the gateway on Node, Bun or the binary for it',
          field: 'Chatwoot is not available on the edge deployment',
        },
      ] as const,
  ),
])

/**
 * The session (its id; for connect, the name it claims) a request names where its route
 * declares it: a path parameter, a query parameter or a field of `body`, the request's JSON.
 */
function sessionNamedBy(route: RouteConfig, c: Context, body: unknown): string {
  const locator = locators.get(route)
  const named =
    locator === undefined || locator.in === 'workspace'
      ? undefined
      : locator.in === 'path'
        ? c.req.param(locator.name)
        : locator.in === 'query'
          ? c.req.query(locator.name)
          : (body as Record<string, unknown> | null)?.[locator.name]
  if (typeof named === 'string' && named) return named
  throw new GatewayError(
    'validation_error',
    'On the edge deployment this request needs a sessionId (path, query or body): each session has its own store',
    { fields: [{ path: 'sessionId', message: 'is required on the edge deployment' }] },
  )
}

/**
 * The session object's answer, from its own copy of the route: the route's answer already,
 * which the typed handler of `.openapi()` cannot know.
 */
const answered = (response: Response) => response as never

/** After a connect, the index takes what the session object now says about the name. */
async function syncIndex(env: EdgeEnv, request: Request, workspace: string, sessionName: string): Promise<void> {
  const listed = await sessionObject(env, workspace, sessionName).handle(
    new Request(new URL('/v1/session/all', request.url), { headers: request.headers }),
  )
  const session = listed.ok
    ? ((await listed.json()) as { sessions: { sessionId: string; status: string }[] }).sessions[0]
    : undefined
  await workspaceObject(env, workspace).record(
    sessionName,
    session ? { sessionId: session.sessionId, status: session.status } : null,
  )
}

export function createEdgeApp(env: EdgeEnv) {
  const config = edgeConfig(env)
  const logger = createEdgeLogger(config.logLevel, { object: 'worker' })
  const app = new Hono<WorkerEnv>().use(requestId())
  app.get('/health', (c) => c.json({ status: 'ok' }))
  // A downloadUrl's signed token is its credential (no JWT, no deployment key): see signed-media.ts.
  app.get('/v1/media/:token', (c) => routeSignedMedia(c.env, c.req.raw, c.req.param('token')))
  // The panel's static page and script, as on Node: before the deployment key (a browser cannot
  // send x-api-key on navigation); everything it shows comes from /v1 with the user's JWT.
  app.route('/', panelRoutes())
  if (config.deploymentApiKey) app.use(deploymentKey(config.deploymentApiKey))

  // The document is built from the same route declarations the session objects serve.
  const document = buildOpenApiDocument([...v1Declarations, signedMediaRoute])
  app.get('/openapi.json', (c) => c.json(document))
  // Whether each workerd bug the shims work around still reproduces (test/edge: drop a shim when it stops).
  app.get('/__edge/platform', (c) => c.json(probePlatformBugs()))

  const jwtAuth: MiddlewareHandler<WorkerEnv> = async function jwtAuth(c, next) {
    // A browser's WebSocket cannot send Authorization: the event socket may carry it as a subprotocol.
    const offered =
      c.req.path === EVENT_SOCKET_PATH ? readProtocols(c.req.header('sec-websocket-protocol')).token : undefined
    const token = offered ?? bearerToken(c, '<JWT>')
    if (!config.jwtSecret)
      throw unauthorized('This deployment has no JWT_SECRET: on the edge, workspaces come from JWTs')
    const credential = await readJwtCredential(token, config.jwtSecret)
    if (!credential.ok)
      throw unauthorized(
        credential.ok === false && token.split('.').length !== 3
          ? 'On the edge the bearer must be a JWT (API keys are a Node/Bun feature)'
          : credential.reason,
      )
    c.set('credential', {
      workspace: credential.workspace,
      plan: credential.plan ?? 'free',
      expiresAtMs: credential.expiresAtMs,
    })
    await next()
  }
  app.use('/v1/*', jwtAuth)
  app.use('/__edge/session/*', jwtAuth)

  // Connect and contact check are validated here, before the workspace object counts them, by
  // the routes' own declarations and validation hook, as on Node (the same 400s, 415s).
  const seams = createRouter<WorkerEnv>()
  for (const route of [connectSessionRoute, checkContactsRoute]) seams.use(route.path, jsonBody())

  seams.openapi(connectSessionRoute, async (c) => {
    const { workspace, plan } = c.get('credential')
    const sessionName = sessionNamedBy(connectSessionRoute, c, c.req.valid('json'))
    const claim = await workspaceObject(c.env, workspace).claim({ workspace, plan, sessionName })
    if ('error' in claim) throwRefusal(claim as Refusal)
    const response = await sessionObject(c.env, workspace, sessionName).handle(forward(c.req.raw, await c.req.text()))
    await syncIndex(c.env, c.req.raw, workspace, sessionName)
    return answered(response)
  })

  app.get('/v1/workspace', async (c) => {
    const { workspace, plan } = c.get('credential')
    const row = await workspaceObject(c.env, workspace).workspace(workspace)
    return c.json({ id: row.id, name: row.name, plan, limits: config.plans[plan] })
  })

  app.get('/v1/session/all', async (c) => {
    const { workspace } = c.get('credential')
    const names = await workspaceObject(c.env, workspace).sessionNames()
    const lists = await Promise.all(
      names.map(async (name) => {
        const response = await sessionObject(c.env, workspace, name).handle(forward(c.req.raw))
        return response.ok ? ((await response.json()) as { sessions: unknown[] }).sessions : []
      }),
    )
    return c.json({ sessions: lists.flat() })
  })

  seams.openapi(checkContactsRoute, async (c) => {
    const { workspace, plan } = c.get('credential')
    const body = c.req.valid('json')
    const sessionId = sessionNamedBy(checkContactsRoute, c, body)
    const sessionName = await routeTo(c.env, workspace, sessionId)
    const index = workspaceObject(c.env, workspace)
    const checks = new Set(body.phones.map((phone) => phone.digits)).size
    const reserved = await index.reserveChecks({ workspace, plan, count: checks })
    if ('error' in reserved) return throwRefusal(reserved as Refusal)
    const answer = await sessionObject(c.env, workspace, sessionName).handle(forward(c.req.raw, await c.req.text()))
    // Counted here, per workspace; the session object's own (per-object) figures are replaced.
    if (answer.status >= 400) await index.refundChecks({ workspace, plan, count: checks })
    if (answer.status !== 200) return answered(answer)
    const response = new Response(answer.body, answer)
    for (const [name, value] of Object.entries(reserved.headers)) response.headers.set(name, value)
    return answered(response)
  })
  app.route('/', seams)

  // The event socket's handshake goes to the session's object by fetch (an RPC cannot answer a
  // WebSocket), with what the JWT said; the object accepts it with the hibernation API.
  app.get(EVENT_SOCKET_PATH, async (c) => {
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket')
      throw validationError([{ path: 'Upgrade', message: 'this route answers WebSocket handshakes only' }])
    const offered = readProtocols(c.req.header('sec-websocket-protocol'))
    if (offered.token && !offered.protocol)
      throw validationError([
        { path: 'Sec-WebSocket-Protocol', message: `offer ${EVENTS_PROTOCOL} beside the wag.bearer.<credential>` },
      ])
    const { workspace, expiresAtMs } = c.get('credential')
    const name = await routeTo(c.env, workspace, sessionNamedBy(eventSocketRoute, c, null))
    const headers = new Headers(c.req.raw.headers)
    // The credential goes no further: the object trusts what the Worker checked.
    headers.delete('authorization')
    headers.delete('sec-websocket-protocol')
    headers.set(WORKSPACE_HEADER, workspace)
    headers.set(EXPIRES_HEADER, String(expiresAtMs))
    return sessionObject(c.env, workspace, name).fetch(new Request(c.req.url, { headers }))
  })

  app.get('/__edge/session/:id', async (c) => {
    const name = await routeTo(c.env, c.get('credential').workspace, c.req.param('id'))
    return c.json(await sessionObject(c.env, c.get('credential').workspace, name).runtime())
  })
  app.post('/__edge/session/:id/evict', async (c) => {
    if (c.env.EDGE_TEST_HOOKS !== 'true') throw new GatewayError('not_found', 'No such route')
    const name = await routeTo(c.env, c.get('credential').workspace, c.req.param('id'))
    await sessionObject(c.env, c.get('credential').workspace, name)
      .evict()
      .catch(() => {}) // the abort also fails the call that asked for it
    return c.json({ evicted: true })
  })

  for (const route of v1Declarations) {
    if (WORKSPACE_LEVEL.has(route) || route === eventSocketRoute) continue
    app.on(route.method.toUpperCase(), routingPath(route.path), async (c) => {
      const refused = REFUSED_ON_THE_EDGE.get(route)
      if (refused)
        throw new GatewayError('validation_error', refused.message, {
          fields: [{ path: '(path)', message: refused.field }],
        })
      const { workspace } = c.get('credential')
      const text = c.req.method === 'GET' || c.req.method === 'HEAD' ? undefined : await c.req.raw.text()
      // Read only to find the session; the session object's route validates the body as on Node.
      const sessionId = sessionNamedBy(route, c, text ? jsonOrNull(text) : null)
      const name = await routeTo(c.env, workspace, sessionId)
      const response = await sessionObject(c.env, workspace, name).handle(forward(c.req.raw, text || undefined))
      // A deleted session leaves the index too: its name is free, and its id routes nowhere.
      if (route === deleteSessionRoute && response.ok) await workspaceObject(c.env, workspace).record(name, null)
      return response
    })
  }

  app.all('*', () => {
    throw new GatewayError('not_found', 'No such route')
  })
  // The Node app's handlers: the same Error object.
  app.onError(errorHandler<WorkerEnv>(logger))
  app.notFound(notFoundHandler)
  return app
}

/** A declared path (`/v1/session/{id}/qr`) as Hono routes it (`/v1/session/:id/qr`). */
const routingPath = (path: string) => path.replaceAll(/\{([^}]+)\}/g, ':$1')

async function routeTo(env: EdgeEnv, workspace: string, sessionId: string): Promise<string> {
  const index = workspaceObject(env, workspace)
  const name = await index.locate(sessionId)
  if (name) return name
  // Worded as the session object's own 404 (services/sessions/view.ts), a name's hint included.
  const named = await index.idOfName(sessionId)
  throw named ? nameUsedAsId(sessionId, named) : notFound(`Session "${sessionId}"`)
}

let app: ReturnType<typeof createEdgeApp> | undefined

export default {
  fetch(request, env, ctx) {
    app ??= createEdgeApp(env)
    return app.fetch(request, env, ctx)
  },
} satisfies ExportedHandler<EdgeEnv>
