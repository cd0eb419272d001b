import type { Hook } from '@hono/zod-openapi'
import type { z } from 'zod'
import { GatewayError } from '../errors'
import { clip, echo } from '../schemas/echo'
import { validationError, type FieldError } from '../services/validation-error'
import type { AppEnv } from './env'
import { JSON_MEDIA_TYPE, mediaType } from './json-body'

/** An error body names fields and rules; these caps keep a hostile body from inflating it. */
export const MAX_LISTED_FIELDS = 20
const MAX_FIELDS_IN_MESSAGE = 3
const MAX_FIELD_MESSAGE_CHARS = 200
const MAX_PATH_SEGMENT_CHARS = 40
const MAX_LISTED_KEYS = 5

const pathOf = (issue: z.core.$ZodIssue) =>
  issue.path.map((segment) => clip(String(segment), MAX_PATH_SEGMENT_CHARS)).join('.') || '(body)'

/** zod's own text for unknown keys quotes each key whole, however long: we quote ~40 chars of five. */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const listed = issue.keys.slice(0, MAX_LISTED_KEYS).map(echo).join(', ')
    const more = issue.keys.length > MAX_LISTED_KEYS ? ` and ${issue.keys.length - MAX_LISTED_KEYS} more` : ''
    return `unknown field${issue.keys.length === 1 ? '' : 's'}: ${listed}${more}`
  }
  return clip(issue.message, MAX_FIELD_MESSAGE_CHARS)
}

export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({ path: pathOf(issue), message: messageOf(issue) }))
}

/** The 400 for zod's issues: at most 20 fields listed (and how many were left out), 3 in the message. */
export function issuesError(issues: readonly z.core.$ZodIssue[]): GatewayError {
  const all = fieldErrors(issues)
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

/**
 * The one validation hook (every route's `defaultHook`, see ./router.ts): a failure becomes our
 * 400 Error object; without it the validator answers zod's raw result. A JSON body sent under
 * another Content-Type is named as such instead of surfacing as "field required". Malformed
 * JSON and bad charsets are answered earlier, by the jsonBody middleware.
 */
export const validationHook: Hook<unknown, AppEnv, string, undefined> = (result, c) => {
  if (result.success) return
  if (result.target === 'json' && !JSON_MEDIA_TYPE.test(mediaType(c))) {
    throw validationError(
      [{ path: '(body)', message: 'expected Content-Type: application/json' }],
      'The request body must be JSON sent with Content-Type: application/json',
    )
  }
  throw issuesError(result.error.issues)
}
