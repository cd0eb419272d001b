import { codeToStatus, type ErrorCode } from '../errors'
import { METHODS_WITH_BODY } from '../http/middleware/body-limit'
import { METHODS_WITH_JSON } from '../http/middleware/json-body'
import { errorCodesOf, errorResponse } from './route'

/** What the answers below depend on: the operation as the document has it. */
export interface OperationFacts {
  method: string
  path: string
  /** It names a credential (its `security` is not empty). */
  secured: boolean
}

/**
 * The answers an operation gives whatever its route lists, because the middleware and the
 * validators every request of its kind passes through give them. The document adds them to
 * every operation they apply to, so no route lists them and a new route cannot leave one out
 * (test/openapi/declared-answers.test.ts drives every operation to each of them).
 */
const sharedAnswers: { code: ErrorCode; appliesTo: (operation: OperationFacts) => boolean }[] = [
  // Every route validates its path ids and refuses a query parameter it does not take (http/router.ts).
  { code: 'validation_error', appliesTo: () => true },
  // Bearer auth (an API key, a JWT, the admin key or the metrics token) and the deployment key.
  { code: 'unauthorized', appliesTo: (op) => op.secured },
  // bodyLimit reads the body of these methods on every route, whether the route takes one or not.
  { code: 'payload_too_large', appliesTo: (op) => METHODS_WITH_BODY.includes(op.method.toUpperCase()) },
  // jsonBody: a body of these methods is JSON or refused, on every /v1 route.
  { code: 'unsupported_media_type', appliesTo: (op) => METHODS_WITH_JSON.includes(op.method.toUpperCase()) },
  // The per-minute limit counts /v1's and /v1/admin's credentials, not a signed URL's token or /metrics'.
  { code: 'rate_limited', appliesTo: (op) => op.secured && op.path.startsWith('/v1/') },
  { code: 'internal_error', appliesTo: () => true },
]

/**
 * An operation's responses with the shared answers added: a status it lists gains the code in
 * its description and examples, a status it does not list is added. In status order.
 */
export function withSharedAnswers<Responses extends Record<string, unknown>>(
  operation: OperationFacts,
  responses: Responses,
): Responses {
  const merged: Record<string, unknown> = { ...responses }
  for (const { code, appliesTo } of sharedAnswers) {
    if (!appliesTo(operation)) continue
    const status = String(codeToStatus(code))
    const codes = merged[status] ? errorCodesOf(merged[status]) : []
    // A status the route answers with something other than an error body keeps its own entry (none does today).
    if (merged[status] && codes.length === 0) continue
    if (!codes.includes(code)) merged[status] = errorResponse([...codes, code])
  }
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b))) as Responses
}
