import type { MiddlewareHandler } from 'hono'
import type { Logger } from '../../logger'
import type { AppEnv } from '../env'

/**
 * One log line per request: id, method, path (never the query string, which may carry
 * tokens), status and duration. Headers are not logged at all.
 */
export function requestLogger(logger: Logger): MiddlewareHandler<AppEnv> {
  // The line's fields are fixed and hold no secret, so it skips the redaction pass (half the
  // cost of a line); the same level and destination as the gateway's logger.
  const lines = logger.child({}, { redact: [] })
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
    if (status >= 500) lines.error(line, 'request failed')
    else lines.info(line, 'request')
  }
}
