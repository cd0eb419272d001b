import { z } from 'zod'

/** A chat: a phone number (digits, country code first), a group id (`…@g.us`) or a LID (`…@lid`). */
export const chatAddress = z
  .string()
  .regex(/^(\d{6,15}|\d{6,22}(-\d{1,12})?@g\.us|\d{1,22}@lid)$/, {
    error: 'must be a phone number (6 to 15 digits, country code first), a group id <id>@g.us or a LID <id>@lid',
  })
  .meta({ description: 'Digits of a phone number (country code first), a group `<id>@g.us`, or a LID `<id>@lid`.' })
