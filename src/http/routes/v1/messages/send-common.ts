import { z } from 'zod'
import type { ErrorCode } from '../../../../errors'

/** Hono hands header validators lower-cased names; HTTP header names are case-insensitive. */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().meta({
    description:
      'Retries with the same key (per workspace, 24 h) answer the first record and send nothing; the same key with another body is 409.',
  }),
})

/** What any send can answer besides 200. */
export const SEND_ERRORS = [
  'validation_error',
  'not_found',
  'session_not_connected',
  'idempotency_key_reused',
  'upstream_error',
  'upstream_timeout',
] as const satisfies ErrorCode[]

/** Sends that fetch a client URL can also answer 413 and 422. */
export const MEDIA_SEND_ERRORS = [
  ...SEND_ERRORS,
  'payload_too_large',
  'media_unavailable',
] as const satisfies ErrorCode[]

export const SENT_DESCRIPTION = 'The message record: status `pending` (handed to WhatsApp) or later'
