import type { ErrorCode } from '../errors'

export interface ErrorExample {
  /** Registers it once under components/examples: every operation refers to it there. */
  id: string
  summary: string
  value: { error: ErrorCode; message: string; details: Record<string, unknown> }
}

const example = (code: ErrorCode, summary: string, message: string, details: Record<string, unknown> = {}) => ({
  id: `error_${code}`,
  summary,
  value: { error: code, message, details },
})

/**
 * One example answer per error code, as the gateway words it: every error response of
 * /openapi.json shows those of the codes it lists (Swagger UI shows them by name). A Record over
 * every code, so a code added to src/errors.ts fails to compile until it has one.
 */
export const errorExamples: Record<ErrorCode, ErrorExample> = {
  validation_error: example(
    'validation_error',
    'A field, a path id or a query parameter the route does not take',
    'Invalid request: sessionId: is required; query.color: is not a parameter of this route',
    {
      fields: [
        { path: 'sessionId', message: 'is required' },
        { path: 'query.color', message: 'is not a parameter of this route' },
      ],
    },
  ),
  unauthorized: example('unauthorized', 'No credential, or one that is not valid', 'Invalid API key'),
  plan_required: example(
    'plan_required',
    'Not part of the workspace’s plan',
    'Interactive buttons messages are not part of the free plan',
    { plan: 'free' },
  ),
  forbidden: example('forbidden', 'Not allowed to this caller', 'This download link is not valid'),
  not_found: example('not_found', 'Unknown, or another workspace’s', 'Session ses_0123456789abcdef not found'),
  session_name_taken: example(
    'session_name_taken',
    'A live session has the name',
    'A session named "sales" is connected',
    { sessionId: 'ses_0123456789abcdef', status: 'connected' },
  ),
  session_not_connected: example(
    'session_not_connected',
    'The session is not connected',
    'Session is connecting, not connected; nothing was done',
    { status: 'connecting' },
  ),
  session_state_conflict: example(
    'session_state_conflict',
    'The session’s status does not allow this now',
    'Session "ses_0123456789abcdef" is connected: it is already paired, there is no QR code to scan',
    { status: 'connected' },
  ),
  message_not_editable: example(
    'message_not_editable',
    'The message cannot take this change',
    'This message cannot be edited: it was sent more than 15 minutes ago',
  ),
  idempotency_key_reused: example(
    'idempotency_key_reused',
    'The Idempotency-Key came with another body',
    'This Idempotency-Key was used with another request body',
  ),
  webhook_limit_reached: example(
    'webhook_limit_reached',
    'The session or workspace already has its most webhooks',
    'This session already has 10 webhooks besides its webhookUrl, the most it may have; delete one first',
    { limit: 10 },
  ),
  not_business_account: example(
    'not_business_account',
    'Labels: the account is not a WhatsApp Business one',
    'Labels are a WhatsApp Business feature and this session’s account is a personal one; nothing was changed',
  ),
  media_expired: example(
    'media_expired',
    'WhatsApp and the phone no longer have the file',
    'The file is no longer on WhatsApp’s servers and the phone did not send it again',
  ),
  payload_too_large: example(
    'payload_too_large',
    'The request body is over the limit',
    'Request body exceeds 1048576 bytes',
    {
      limitBytes: 1048576,
    },
  ),
  unsupported_media_type: example(
    'unsupported_media_type',
    'The body is not sent as JSON',
    'Request bodies are JSON: send Content-Type: application/json (got "text/plain")',
    { contentType: 'text/plain' },
  ),
  range_not_satisfiable: example(
    'range_not_satisfiable',
    'The Range is past the file',
    'The range is outside the file (5000 bytes)',
  ),
  media_unavailable: example(
    'media_unavailable',
    'The media URL could not be fetched or read',
    'The media URL could not be fetched: the server answered 404',
  ),
  daily_limit_exceeded: example(
    'daily_limit_exceeded',
    'The plan’s daily quota is used up',
    'Daily contact check limit reached: 0 checks remain today, this request needs 2',
    { limit: 100, used: 100, remaining: 0, resetsAt: '2025-01-02T00:00:00.000Z' },
  ),
  rate_limited: example(
    'rate_limited',
    'Too many requests for this credential',
    'Too many requests: 600 requests per minute per credential; retry in 12 s',
    { limit: 600, windowSeconds: 60, retryAfterSeconds: 12 },
  ),
  internal_error: example(
    'internal_error',
    'A fault of the gateway',
    'Internal error; the request id identifies it in the logs',
  ),
  upstream_error: example('upstream_error', 'WhatsApp (or the media store) refused', 'WhatsApp refused the message'),
  upstream_timeout: example('upstream_timeout', 'WhatsApp did not answer in time', 'WhatsApp did not answer in time'),
}
