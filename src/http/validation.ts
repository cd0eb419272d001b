import type { Hook } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { z } from 'zod'
import { GatewayError } from '../errors'
import { clip, echo } from '../schemas/echo'
import type { FieldError } from '../services/validation-error'
import { JSON_MEDIA_TYPE, mediaType, notJson } from './json-body'

/** An error body names fields and rules; these caps keep a hostile body from inflating it. */
export const MAX_LISTED_FIELDS = 20
const MAX_FIELDS_IN_MESSAGE = 3
const MAX_FIELD_MESSAGE_CHARS = 200
const MAX_PATH_SEGMENT_CHARS = 40
const MAX_LISTED_KEYS = 5

const pathOf = (issue: z.core.$ZodIssue) =>
  issue.path.map((segment) => clip(String(segment), MAX_PATH_SEGMENT_CHARS)).join('.') || '(body)'

/** What the request held at an issue's path (undefined when absent). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[segment]
  }
  return value
}

/**
 * One phrasing per kind of failure: a field that is absent "is required", whatever its type or
 * its own error text would say. zod's own text for unknown keys quotes each key whole, however
 * long: we quote ~40 chars of five.
 */
function messageOf(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'invalid_type' && input !== NOT_GIVEN && valueAt(input, issue.path) === undefined)
    return 'is required'
  if (issue.code === 'unrecognized_keys') {
    const listed = issue.keys.slice(0, MAX_LISTED_KEYS).map(echo).join(', ')
    const more = issue.keys.length > MAX_LISTED_KEYS ? ` and ${issue.keys.length - MAX_LISTED_KEYS} more` : ''
    return `unknown field${issue.keys.length === 1 ? '' : 's'}: ${listed}${more}`
  }
  return clip(issue.message, MAX_FIELD_MESSAGE_CHARS)
}

/** issuesError without the input: absent fields cannot be told apart from mistyped ones. */
const NOT_GIVEN = Symbol('not given')

export function fieldErrors(issues: readonly z.core.$ZodIssue[], input: unknown = NOT_GIVEN): FieldError[] {
  return issues.map((issue) => ({ path: pathOf(issue), message: messageOf(issue, input) }))
}

/**
 * The 400 for zod's issues on `input` (the value that was validated): at most 20 fields listed
 * (and how many were left out), 3 in the message.
 */
export function issuesError(issues: readonly z.core.$ZodIssue[], input: unknown = NOT_GIVEN): GatewayError {
  const all = fieldErrors(issues, input)
  const fields = all.slice(0, MAX_LISTED_FIELDS)
  const omittedFields = all.length - fields.length
  const summary = all
    .slice(0, MAX_FIELDS_IN_MESSAGE)
    .map((f) => `${f.path}: ${f.message}`)
    .join('; ')
  const more = all.length > MAX_FIELDS_IN_MESSAGE ? ` and ${all.length - MAX_FIELDS_IN_MESSAGE} more` : ''
  return new GatewayError('validation_error', `Invalid request: ${summary}${more}`, {
    fields,
    ...(omittedFields > 0 ? { omittedFields } : {}),
  })
}

/** What a validator checked, read again from Hono's caches (the JSON body was parsed by jsonBody). */
async function validatedInput(c: Context, target: string): Promise<unknown> {
  if (target === 'json') return c.req.json()
  if (target === 'query') return c.req.query()
  if (target === 'param') return c.req.param()
  if (target === 'header') return c.req.header()
  return NOT_GIVEN
}

/**
 * A query parameter the route does not take, named as one (`query.<name>`): zod reports unknown
 * keys at the query's root, which would read as the body's (`(body)`).
 */
const unknownQueryParameters = (issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] =>
  issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' && issue.path.length === 0
      ? issue.keys.map((key) => ({
          code: 'custom' as const,
          input: undefined,
          path: ['query', key],
          message: 'is not a parameter of this route',
        }))
      : [issue],
  )

/**
 * The one validation hook (every route's `defaultHook`, see ./router.ts): a failure becomes our
 * 400 Error object; without it the validator answers zod's raw result. A route that needs a JSON
 * body and got none under application/json answers the 415 a wrong Content-Type gets (the
 * jsonBody middleware answers those, malformed JSON and bad charsets earlier).
 */
// biome-ignore lint/suspicious/noExplicitAny: any app's Env (the gateway's, the edge Worker's): it reads only the request
export const validationHook: Hook<unknown, any, string, Promise<undefined>> = async (result, c) => {
  if (result.success) return
  if (result.target === 'json' && !JSON_MEDIA_TYPE.test(mediaType(c))) throw notJson(mediaType(c))
  const issues = result.target === 'query' ? unknownQueryParameters(result.error.issues) : result.error.issues
  throw issuesError(issues, await validatedInput(c, result.target))
}
