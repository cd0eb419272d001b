import type { Context } from 'hono'
import { matchedRoutes } from 'hono/route'

/**
 * The pattern of the route that serves a request (`/v1/session/:id/qr`), never its path: ids in
 * a path would make one series per session or message. Middleware is mounted on wildcards
 * (`/v1/*`, `*`), endpoints never are, so the first match without one is the endpoint (a 401
 * from the auth middleware still counts under the route it was for); no endpoint: `unmatched`.
 */
export function routePattern(c: Context): string {
  for (const route of matchedRoutes(c)) if (!route.path.includes('*')) return route.path
  return 'unmatched'
}
