import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi'
import type { ExtractSchema } from 'hono/types'
import type { AppEnv } from '../env'
import { createRouter } from '../router'
import type { AnySessionLocator, SessionLocator } from './session-locator'

// biome-ignore lint/suspicious/noExplicitAny: any route's router; its schema is read back by type below
type Served = OpenAPIHono<AppEnv, any, any>

/** `{id}` → `:id`: how @hono/zod-openapi keys a route in its schema (its ConvertPathType, not exported). */
type RoutingPath<P extends string> = P extends `${infer Start}/{${infer Param}}${infer Rest}`
  ? `${Start}/:${Param}${RoutingPath<Rest>}`
  : P

/** Whether a router answers the route's method on the route's path. */
type Answers<S extends Served, R extends RouteConfig> =
  RoutingPath<R['path']> extends keyof ExtractSchema<S>
    ? `$${R['method']}` extends keyof ExtractSchema<S>[RoutingPath<R['path']>]
      ? true
      : false
    : false

/**
 * A route's declaration (what the edge Worker and the document read), where its requests name
 * their session (what the Worker routes by) and what serves it.
 */
export interface Endpoint<Ctx, S extends Served = Served, R extends RouteConfig = RouteConfig> {
  readonly route: R
  readonly session: AnySessionLocator
  readonly serve: (ctx: Ctx) => S
}

/**
 * Pairs a declaration with where its requests name their session and the router that serves
 * it. A router that does not answer the declared method and path is a compile error, so a
 * resource's list cannot declare one route and serve another; so is a locator naming a field
 * the route does not declare.
 */
export function endpoint<Ctx, S extends Served, R extends RouteConfig>(
  route: R,
  session: NoInfer<SessionLocator<R>>,
  serve: (ctx: Ctx) => S,
  ..._answers: Answers<S, R> extends true ? [] : [mismatch: `serve does not answer ${R['method']} ${R['path']}`]
): Endpoint<Ctx, S, R> {
  return { route, session: session as AnySessionLocator, serve }
}

/** The schemas of a list of endpoints, merged as `.route()` chains merge them. */
type SchemaOf<List> = List extends readonly [infer Head, ...infer Tail]
  ? (Head extends Endpoint<never, infer S> ? ExtractSchema<S> : never) & SchemaOf<Tail>
  : // biome-ignore lint/complexity/noBannedTypes: Hono's blank schema
    {}

/**
 * One router serving every endpoint of a list, in its order (a literal path before a
 * parameter one it would shadow), typed with every route so hc<AppType> keeps them all.
 */
export function serveAll<Ctx, const List extends readonly Endpoint<Ctx>[]>(
  ctx: Ctx,
  list: List,
): OpenAPIHono<AppEnv, SchemaOf<List>> {
  const router = createRouter()
  for (const { serve } of list) router.route('/', serve(ctx))
  return router as unknown as OpenAPIHono<AppEnv, SchemaOf<List>>
}
