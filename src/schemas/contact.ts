import { z } from 'zod'
import { EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from './examples'
import { phoneNumber } from './phone'

export const MAX_PHONES_PER_CHECK = 50

export const ContactCheckBody = z
  .strictObject({
    sessionId: z.string().min(1),
    phones: z
      .array(phoneNumber)
      .min(1, 'send at least one number')
      .max(MAX_PHONES_PER_CHECK, {
        error: (issue) =>
          `at most ${MAX_PHONES_PER_CHECK} numbers per request (got ${(issue.input as unknown[]).length})`,
      })
      .meta({
        description: `1 to ${MAX_PHONES_PER_CHECK} phone numbers; each different number counts once against the daily quota, however it is written.`,
      }),
  })
  .meta({
    id: 'ContactCheckRequest',
    example: { sessionId: EXAMPLE_SESSION_ID, phones: [EXAMPLE_PHONE, '+1 555-123-0002'] },
  })

export const ContactCheckResult = z
  .object({
    phone: z.string().meta({ description: 'Exactly as sent.' }),
    exists: z.boolean(),
    jid: z.string().optional().meta({ description: 'Only when exists is true.' }),
    lid: z.string().optional().meta({ description: 'Only when exists is true and WhatsApp gave one.' }),
    hint: z.string().optional().meta({
      description:
        'Only when exists is false and the number looks written wrong: it starts with 00 or 0, or is short enough to lack its country code.',
    }),
  })
  .meta({ id: 'ContactCheckResult' })

export const ContactCheckResponse = z
  .object({
    success: z.boolean(),
    results: z.array(ContactCheckResult),
    summary: z.object({ total: z.int(), exists: z.int(), notExists: z.int() }),
  })
  .meta({ id: 'ContactCheckResponse' })

export type ContactCheckInput = z.infer<typeof ContactCheckBody>

/** Sent with every contact check answer (IETF RateLimit header fields), also on 429. */
export const ContactCheckQuotaHeaders = z.object({
  'RateLimit-Limit': z.int().meta({ description: 'Checks allowed per UTC day on this plan.' }),
  'RateLimit-Remaining': z.int().meta({ description: 'Checks left today.' }),
  'RateLimit-Reset': z.int().meta({ description: 'Seconds until the quota resets (next UTC midnight).' }),
})
