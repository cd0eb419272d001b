import type { z } from 'zod'
import { codeToStatus, type ErrorCode, type errorCodes } from '../errors'
import { ErrorSchema } from '../schemas/error'
import { errorExamples } from './error-examples'

/**
 * Small builders for the parts every `createRoute({...})` repeats, so a route file reads as
 * its contract: what it takes, what it answers, which errors it can give.
 */

/** Every /v1 route: a bearer credential, plus the deployment key when the operator set one. */
export const bearerSecurity: Record<string, string[]>[] = [{ bearerAuth: [] }, { bearerAuth: [], deploymentKey: [] }]

/** /v1/admin/*: the operator's ADMIN_API_KEY as the bearer, plus the deployment key when set. */
export const adminSecurity: Record<string, string[]>[] = [{ adminBearer: [] }, { adminBearer: [], deploymentKey: [] }]

/** A required JSON request body. `required` also makes a body sent as another media type a 400. */
export const jsonBody = <Schema extends z.ZodType>(schema: Schema, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
})

/** A JSON answer; `headers` (a zod object) documents response headers such as RateLimit-*. */
export const jsonResponse = <Schema extends z.ZodType>(schema: Schema, description: string, headers?: z.ZodObject) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
})

/** The error answer that can carry `codes`: they are its description, and each has an example (keyed by code). */
export const errorResponse = (codes: readonly ErrorCode[]) => ({
  description: codes.join(', '),
  content: {
    'application/json': {
      schema: ErrorSchema,
      examples: Object.fromEntries(codes.map((code) => [code, errorExamples[code]])),
    },
  },
})

/** The codes an error answer built by errorResponse carries (none for any other answer). */
export const errorCodesOf = (response: unknown): ErrorCode[] => {
  const media = (response as { content?: Record<string, { schema?: unknown; examples?: object }> }).content?.[
    'application/json'
  ]
  return media?.schema === ErrorSchema ? (Object.keys(media.examples ?? {}) as ErrorCode[]) : []
}

/**
 * The error answers of a route, grouped by status, each described by the codes it can carry.
 * 401 and 500 are added to every authenticated route, so a route lists only its own codes.
 * Typed clients (hc) see them too and can narrow on `res.status`. What middleware answers on
 * any route (413, 415, 429, a bad path id or query) the document adds (./shared-answers.ts).
 */
export function errorResponses<const Codes extends readonly ErrorCode[]>(
  codes: Codes,
  options: { authenticated?: boolean } = {},
) {
  const all = new Set<ErrorCode>(codes)
  if (options.authenticated !== false) all.add('unauthorized')
  all.add('internal_error')
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of all) byStatus.set(codeToStatus(code), [...(byStatus.get(codeToStatus(code)) ?? []), code])
  // Keyed by literal statuses (not `number`) so hc infers one response type per status.
  type Status = (typeof errorCodes)[Codes[number] | 'unauthorized' | 'internal_error']
  return Object.fromEntries([...byStatus].map(([status, list]) => [status, errorResponse(list)])) as Record<
    Status,
    ReturnType<typeof errorResponse>
  >
}
