import { z } from 'zod'

/** Hono hands header validators lower-cased names; HTTP header names are case-insensitive. */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(255).optional().meta({
    description:
      'Retries with the same key (per workspace, 24 h) answer the first record and send nothing; the same key with another body is 409.',
  }),
})

export const SENT_DESCRIPTION = 'The message record: status `pending` (handed to WhatsApp) or later'
