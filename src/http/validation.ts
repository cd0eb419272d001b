import type { Hook } from '@hono/zod-openapi'
import type { z } from 'zod'
import { validationError, type FieldError } from '../services/validation-error'
import type { AppEnv } from './env'

export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }))
}

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i

/**
 * The one validation hook (every route's `defaultHook`, see ./router.ts): a failure becomes our
 * 400 Error object; without it the validator answers zod's raw result. A JSON body sent under
 * another Content-Type is named as such instead of surfacing as "field required".
 */
export const validationHook: Hook<unknown, AppEnv, string, undefined> = (result, c) => {
  if (result.success) return
  if (result.target === 'json') {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim()
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw validationError(
        [{ path: '(body)', message: 'expected Content-Type: application/json' }],
        'The request body must be JSON sent with Content-Type: application/json',
      )
    }
  }
  throw validationError(fieldErrors(result.error.issues))
}
