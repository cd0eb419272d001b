import type { MiddlewareHandler } from 'hono'
import type { Logger } from '../../logger'
import type { AppEnv } from '../env'

/**
 * One log line per request: id, method, path (never the query string, which may carry
 * tokens), status and duration. Headers are not logged at all.
 */
export function requestLogger(logger: Logger): MiddlewareHandler<AppEnv> {
  return async function requestLogger(c, next) {
    const started = performance.now()
    await next()
    const status = c.res.status
    const line = {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    }
    if (status >= 500) logger.error(line, 'request failed')
    else logger.info(line, 'request')
  }
}
