import { z } from 'zod'
import { EXAMPLE_MESSAGE_ID } from './examples'
import { eitherRequired } from './requirements'
import { REFERENCED, referenced, to, withPhoneAndMessageId } from './send-fields'

export const MAX_REACTION_BYTES = 32

/** A pictograph, a regional-indicator flag or a keycap: what makes a grapheme an emoji. */
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this rule's purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const utf8 = new TextEncoder()
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** Pure: how many grapheme clusters (user-perceived characters) a string has. */
export const graphemeCount = (text: string): number => {
  let count = 0
  for (const _ of graphemes.segment(text)) count++
  return count
}

/**
 * One emoji as people see it (a grapheme cluster: skin tones, flags, keycaps and ZWJ sequences
 * such as 👩‍💻 included), at most 32 bytes of UTF-8; '' removes the reaction. Checked cheapest
 * first, so a huge string costs a length check.
 */
const reactionEmoji = z
  .string()
  .max(MAX_REACTION_BYTES, { abort: true, message: `must be one emoji of at most ${MAX_REACTION_BYTES} bytes` })
  .refine((emoji) => utf8.encode(emoji).length <= MAX_REACTION_BYTES, {
    abort: true,
    message: `must be one emoji of at most ${MAX_REACTION_BYTES} bytes`,
  })
  .refine((emoji) => emoji === '' || (graphemeCount(emoji) === 1 && EMOJI.test(emoji) && !CONTROL.test(emoji)), {
    message: 'must be exactly one emoji (or empty to remove the reaction)',
  })
  .meta({
    description: `One emoji (a single grapheme: skin tones, flags, keycaps and joined sequences count as one), at most ${MAX_REACTION_BYTES} bytes of UTF-8; "" removes this session’s reaction.`,
  })

export const ReactMessageBody = eitherRequired(z.strictObject({ ...referenced, emoji: reactionEmoji }), REFERENCED)
  .transform(withPhoneAndMessageId)
  .meta({
    id: 'ReactMessageRequest',
    description: 'A reaction to any message of the chat, the session’s own or the other party’s.',
    example: { ...to, messageId: EXAMPLE_MESSAGE_ID, emoji: '👍' },
  })

export type ReactMessageInput = z.infer<typeof ReactMessageBody>

/** What a record's content adds: everyone's current reaction to it. */
export const reactionContentFields = {
  reactions: z
    .array(
      z.object({
        from: z
          .string()
          .meta({ description: 'Who: the number, else `<digits>@lid` (this session’s own number for its reactions).' }),
        emoji: z.string(),
        reactedAt: z.iso.datetime(),
      }),
    )
    .optional()
    .meta({ description: 'Each person’s current reaction, one per person; a removed reaction is gone.' }),
}
