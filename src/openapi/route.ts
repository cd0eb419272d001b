import type { z } from 'zod'
import type { ErrorCode } from '../errors'

/**
 * What a route tells the OpenAPI document. Built from the same zod schemas the route
 * validates with, so the document cannot drift from the code.
 */
export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'delete'
  /** OpenAPI form, e.g. `/v1/session/update/{id}`. */
  path: string
  summary: string
  description?: string
  tag: string
  /** Whether the route needs `Authorization: Bearer` (default true). */
  auth?: boolean
  params?: z.ZodObject
  body?: z.ZodType
  response: { description: string; schema: z.ZodType }
  /** Error codes the route can answer besides 401/500, which every authenticated route has. */
  errors?: ErrorCode[]
}

/** `/v1/session/update/{id}` → `/v1/session/update/:id` */
export const honoPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ':$1')
