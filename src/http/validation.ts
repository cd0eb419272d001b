import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import { validationError, type FieldError } from '../services/validation-error'

export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }))
}

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i

/**
 * zValidator with the one hook every route uses: a failure becomes our 400 Error object
 * (without it, zod-validator answers its raw result). A JSON body sent under another
 * Content-Type is named as such instead of surfacing as "field required".
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result, c) => {
    if (result.success) return
    if (target === 'json') {
      const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim()
      if (!JSON_MEDIA_TYPE.test(mediaType)) {
        throw validationError(
          [{ path: '(body)', message: 'expected Content-Type: application/json' }],
          'The request body must be JSON sent with Content-Type: application/json',
        )
      }
    }
    throw validationError(fieldErrors(result.error.issues))
  })
}
