import { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from './env'
import { validationHook } from './validation'

/**
 * The app every route file builds on. `createRoute` + `.openapi(route, handler)` (from
 * @hono/zod-openapi) declare a route once: its path, validators and typed handler come from
 * the same object the OpenAPI document is built from, and hc<AppType> infers from it.
 * `defaultHook` routes every validation failure through our one hook.
 */
export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
