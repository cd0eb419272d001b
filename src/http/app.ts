import { Hono } from 'hono'
import type { ExtractSchema } from 'hono/types'
import { GatewayError } from '../errors'
import type { GatewayContext } from '../services/context'
import type { HttpContext } from './context'
import { runtimeUpgradeWebSocket, type GatewayUpgradeWebSocket } from '../runtime/websocket'
import { EventStreams } from './event-streams'
import type { AppEnv } from './env'
import { errorHandler, notFoundHandler } from './error-handler'
import { bodyLimit, METHODS_WITH_BODY } from './middleware/body-limit'
import { committedAnswers } from './middleware/committed-answers'
import { deploymentKey } from './middleware/deployment-key'
import { requestLog } from './middleware/request-log'
import { docsRoutes } from './routes/docs'
import { healthRoutes } from './routes/health'
import { panelRoutes } from './routes/panel'
import { buildOpenApiDocument, registeredRoutes } from '../openapi/document'
import { v1Routes, type V1Routes } from './routes/v1'
import { adminRoutes } from './routes/v1/admin'
import { metricsRoutes } from './routes/metrics'
import type { PrometheusMetrics } from '../metrics/prometheus'
import { signedMediaRoutes } from './routes/media/signed'
import { chatwootCallbackRoutes } from './routes/chatwoot/callback'

/**
 * The app's type, written out rather than inferred: the published `.d.ts` then names each
 * part instead of expanding every route's types into one declaration (tsc refuses past ~1 MB).
 */
export type HttpApp = Hono<
  AppEnv,
  ExtractSchema<ReturnType<typeof healthRoutes>> &
    ExtractSchema<ReturnType<typeof docsRoutes>> &
    ExtractSchema<ReturnType<typeof panelRoutes>> &
    ExtractSchema<ReturnType<typeof signedMediaRoutes>> &
    ExtractSchema<V1Routes>,
  '/'
>

/** Event streams one workspace may hold open at once (each is a connection polling the outbox). */
const EVENT_STREAMS_PER_WORKSPACE = 10

/** The HTTP app and what it holds open that the gateway's stop must end. */
export interface HttpSurface {
  app: HttpApp
  /** Ends every open event stream (GET /v1/events) at its next turn. */
  endStreams(): void
}

/** Composes the HTTP surface in order: ids and logs, probes, /metrics (when enabled), deployment key, /v1/admin (when enabled), docs, /v1. */
export function createHttpApp(
  services: GatewayContext,
  prometheus?: PrometheusMetrics,
  upgradeWebSocket: GatewayUpgradeWebSocket = runtimeUpgradeWebSocket,
): HttpSurface {
  const eventStreams = new EventStreams(EVENT_STREAMS_PER_WORKSPACE)
  const ctx: HttpContext = { ...services, eventStreams, upgradeWebSocket }
  return { app: composeApp(ctx, prometheus), endStreams: () => eventStreams.endAll() }
}

function composeApp(ctx: HttpContext, prometheus: PrometheusMetrics | undefined): HttpApp {
  const app = new Hono<AppEnv>().use(requestLog(ctx.logger, ctx.metrics)).use(committedAnswers(ctx.db))
  app.on(METHODS_WITH_BODY, '*', bodyLimit(ctx.config.bodyLimitBytes))
  // Registered before the deployment key so load-balancer probes need no credential, and a
  // browser (which cannot send x-api-key on navigation) can load the panel's static page.
  app.route(
    '/',
    healthRoutes(ctx.db, () => ctx.engine.webVersion()),
  )
  app.route('/', panelRoutes())
  // The signed token is the credential of a downloadUrl: a receiver has no key to send.
  const signedMedia = signedMediaRoutes(ctx)
  app.route('/', signedMedia)
  // The token in the URL Chatwoot was given is its credential, as above.
  const chatwootCallback = chatwootCallbackRoutes(ctx)
  app.route('/', chatwootCallback)
  // Its own bearer (METRICS_TOKEN), before the deployment key: a scraper sends one credential.
  const metrics = prometheus && ctx.config.metricsToken ? metricsRoutes(prometheus, ctx.config.metricsToken) : undefined
  if (metrics) app.route('/', metrics)

  if (ctx.config.deploymentApiKey) app.use(deploymentKey(ctx.config.deploymentApiKey))

  const v1 = v1Routes(ctx)
  // Only with ADMIN_API_KEY set, and before /v1's workspace auth, which never sees these paths.
  const admin = ctx.config.adminApiKey ? adminRoutes(ctx, ctx.config.adminApiKey) : undefined
  if (admin) app.route('/', admin)
  const definitions = () =>
    registeredRoutes([
      ...v1.openAPIRegistry.definitions,
      ...signedMedia.openAPIRegistry.definitions,
      ...chatwootCallback.openAPIRegistry.definitions,
      ...(admin?.openAPIRegistry.definitions ?? []),
      ...(metrics?.openAPIRegistry.definitions ?? []),
    ])
  const routes = app
    .route(
      '/',
      docsRoutes(() => buildOpenApiDocument(definitions(), { admin: Boolean(admin), metrics: Boolean(metrics) })),
    )
    .route('/', v1)
    // A catch-all rather than only notFound(): a parent app that mounts us keeps our 404 body.
    .all('*', () => {
      throw new GatewayError('not_found', 'No such route')
    })

  routes.onError(errorHandler(ctx.logger, ctx.clock))
  routes.notFound(notFoundHandler)
  return routes
}
