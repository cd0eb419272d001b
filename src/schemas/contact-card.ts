import { z } from 'zod'
import { phoneNumber } from './phone'
import { BIDI_CONTROL, CONTROL_BUT_NEWLINE, LONE_SURROGATE } from './session-name'

export const MAX_CONTACT_CARDS = 10
export const MAX_CARD_PHONES = 5
const MAX_CARD_TEXT_CHARS = 256

/** Text on a card: any visible text, `;`, `,`, `\`, newlines and emoji included (the vCard escapes them). */
const cardText = z
  .string()
  .normalize('NFC')
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_CARD_TEXT_CHARS, `must be at most ${MAX_CARD_TEXT_CHARS} characters`)
  .refine((text) => !CONTROL_BUT_NEWLINE.test(text), 'must not contain control characters other than newlines')
  .refine((text) => !LONE_SURROGATE.test(text), 'must not contain unpaired surrogates (not valid Unicode text)')
  .refine((text) => !BIDI_CONTROL.test(text), 'must not contain bidirectional override or isolate characters')

export const ContactCard = z
  .strictObject({
    name: cardText,
    phones: z.array(phoneNumber).min(1).max(MAX_CARD_PHONES),
    organization: cardText.optional(),
    email: z.email().max(254).optional(),
  })
  .meta({ description: `A person to share: a name, 1 to ${MAX_CARD_PHONES} phone numbers.` })

export type ContactCardInput = z.infer<typeof ContactCard>
