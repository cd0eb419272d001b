import type { RouteConfig } from '@hono/zod-openapi'
import type { z } from 'zod'

/** The field names of a schema's input (what a client sends). */
type Fields<S> = S extends z.ZodType ? Extract<keyof z.input<S>, string> : never
type PathParams<R> = R extends { request?: { params?: infer P } } ? Fields<P> : never
type QueryFields<R> = R extends { request?: { query?: infer Q } } ? Fields<Q> : never
type BodyFields<R> = R extends { request?: { body?: { content: { 'application/json': { schema: infer S } } } } }
  ? Fields<S>
  : never

/**
 * Where a request names the session it is about, as its route declares it beside the route's
 * schemas (a name the route's path, query or body does not declare does not compile). The edge
 * Worker routes by it: each session has a Durable Object of its own. `workspace`: the request
 * is about no one session (the session list, the workspace). Connect names the session it
 * claims by its `sessionName`.
 */
export type SessionLocator<R extends RouteConfig = RouteConfig> =
  | { readonly in: 'path'; readonly name: PathParams<R> }
  | { readonly in: 'query'; readonly name: QueryFields<R> }
  | { readonly in: 'body'; readonly name: BodyFields<R> }
  | { readonly in: 'workspace' }

/** A locator read without its route's types (the Worker's loop over every route). */
export type AnySessionLocator =
  | { readonly in: 'path' | 'query' | 'body'; readonly name: string }
  | { readonly in: 'workspace' }

export const inPath = <const Name extends string>(name: Name) => ({ in: 'path', name }) as const
export const inQuery = <const Name extends string>(name: Name) => ({ in: 'query', name }) as const
export const inBody = <const Name extends string>(name: Name) => ({ in: 'body', name }) as const
export const inWorkspace = { in: 'workspace' } as const
