import type { Context, MiddlewareHandler } from 'hono'
import type { Logger } from '../../logger'
import { noMetrics, type GatewayMetrics } from '../../metrics/port'
import { routePattern } from '../route-pattern'
import { accessLogWriter } from '../../perf/access-line'
import { setHeaderCheaply } from '../../perf/node-response-header'
import type { AppEnv } from '../env'

const HEADER = 'X-Request-Id'
/** A client's own id is kept when it is short and plain (the rule of hono/request-id). */
const MAX_CLIENT_ID_LENGTH = 255
const UNSAFE_ID_CHARACTER = /[^\w\-=]/

const requestIdOf = (c: Context<AppEnv>) => {
  const sent = c.req.header(HEADER)
  return sent && sent.length <= MAX_CLIENT_ID_LENGTH && !UNSAFE_ID_CHARACTER.test(sent) ? sent : crypto.randomUUID()
}

/** A Chatwoot callback URL's last segment is its credential: the line says the route, not the token. */
const CALLBACK_TOKEN = /^(\/(?:.*\/)?v1\/chatwoot\/[^/]+\/callback\/)[^/]+$/
const loggedPath = (path: string) => path.replace(CALLBACK_TOKEN, '$1…')

/**
 * Every request gets an id (the client's X-Request-Id when it sent a usable one), echoed in
 * X-Request-Id and in the one log line written when the request ends: id, method, path
 * (never the query string, which may carry tokens), status and duration. Headers are not
 * logged at all; the same moment feeds /metrics (route pattern, status, duration) when it is on.
 * One middleware rather than two: each layer of Hono's chain costs a small
 * request about a microsecond.
 */
export function requestLog(logger: Logger, metrics: GatewayMetrics = noMetrics): MiddlewareHandler<AppEnv> {
  const writeAccessLine = accessLogWriter(logger)
  return async function requestLog(c, next) {
    const started = performance.now()
    const requestId = requestIdOf(c)
    c.set('requestId', requestId)
    setHeaderCheaply(c, HEADER, requestId)
    await next()
    const elapsedMs = performance.now() - started
    writeAccessLine({
      requestId,
      method: c.req.method,
      path: loggedPath(c.req.path),
      status: c.res.status,
      durationMs: Math.round(elapsedMs * 10) / 10,
    })
    if (metrics.enabled) metrics.httpRequest(c.req.method, routePattern(c), c.res.status, elapsedMs / 1000)
  }
}
