import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi'
import type { Env } from 'hono'
import { z } from 'zod'
import type { AppEnv } from './env'
import { validationHook } from './validation'

/**
 * A route's query as it is validated: strict, and empty when the route declares none, so a
 * query parameter a route does not take is the same 400 (`query.<name>`) on every route rather
 * than ignored on some. An empty object adds no parameter to the document.
 */
function withStrictQuery<Route extends RouteConfig>(route: Route): Route {
  const query = route.request?.query
  if (query !== undefined && !(query instanceof z.ZodObject)) return route
  return { ...route, request: { ...route.request, query: query ? query.strict() : z.strictObject({}) } }
}

/**
 * The app every route file builds on. `createRoute` + `.openapi(route, handler)` (from
 * @hono/zod-openapi) declare a route once: its path, validators and typed handler come from
 * the same object the OpenAPI document is built from, and hc<AppType> infers from it.
 * `defaultHook` routes every validation failure through our one hook; `openapi` makes every
 * route's query strict (one place, so a new route cannot differ). The edge Worker builds its
 * own (its `Env` is the Worker's) to validate the requests it answers with the same hook.
 */
export const createRouter = <E extends Env = AppEnv>() => {
  const router = new OpenAPIHono<E>({ defaultHook: validationHook })
  const declare = router.openapi
  const declareStrict: typeof declare = (route, handler, hook) => declare(withStrictQuery(route), handler, hook)
  router.openapi = declareStrict
  return router
}
