import { z } from 'zod'
import { eitherRequired } from './requirements'
import { addressed, PHONE, quoteId, to, withPhone } from './send-fields'
import { BIDI_CONTROL, LONE_SURROGATE } from './session-name'

export const MIN_POLL_OPTIONS = 2
export const MAX_POLL_OPTIONS = 12
export const MAX_POLL_OPTION_CHARS = 100
export const MAX_POLL_QUESTION_CHARS = 255

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this rule's purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** Poll text: visible text on one line (emoji welcome), trimmed and in NFC, as people will read it. */
const pollText = (max: number) =>
  z
    .string()
    .max(max * 4, { abort: true, message: `must be at most ${max} characters` })
    .normalize('NFC')
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL.test(text), 'must not contain control characters (newlines included)')
    .refine((text) => !LONE_SURROGATE.test(text), 'must not contain unpaired surrogates (not valid Unicode text)')
    .refine((text) => !BIDI_CONTROL.test(text), 'must not contain bidirectional override or isolate characters')

const pollFields = {
  question: pollText(MAX_POLL_QUESTION_CHARS),
  options: z
    .array(pollText(MAX_POLL_OPTION_CHARS))
    .min(MIN_POLL_OPTIONS, `must have at least ${MIN_POLL_OPTIONS} options`)
    .max(MAX_POLL_OPTIONS, {
      error: (issue) => `at most ${MAX_POLL_OPTIONS} options (got ${(issue.input as unknown[]).length})`,
    })
    .meta({
      description: `${MIN_POLL_OPTIONS} to ${MAX_POLL_OPTIONS} different options, each 1–${MAX_POLL_OPTION_CHARS} characters; votes name them.`,
    }),
  selectableCount: z
    .number()
    .int()
    .min(1)
    .max(MAX_POLL_OPTIONS)
    .default(1)
    .meta({ description: 'How many options one person may pick: 1 (default) up to the number of options.' }),
}

/**
 * A vote names options by the SHA-256 of their text, so two alike could not be told apart; and
 * no one can pick more options than there are. Each problem is an issue at its own path.
 */
function checkPoll(
  poll: { options: string[]; selectableCount: number },
  addIssue: (issue: z.core.$ZodRawIssue) => void,
): void {
  const seen = new Map<string, number>()
  poll.options.forEach((option, i) => {
    const first = seen.get(option)
    if (first === undefined) seen.set(option, i)
    else
      addIssue({
        code: 'custom',
        path: ['options', i],
        input: option,
        message: `repeats option ${first}; options must be different`,
      })
  })
  if (poll.selectableCount > poll.options.length)
    addIssue({
      code: 'custom',
      path: ['selectableCount'],
      input: poll.selectableCount,
      message: `must be at most the number of options (${poll.options.length})`,
    })
}

export const SendPollBody = eitherRequired(z.strictObject({ ...addressed, ...pollFields, quoteId }), [PHONE])
  .superRefine((poll, ctx) => checkPoll(poll, (issue) => ctx.addIssue(issue)))
  .transform(withPhone)
  .meta({
    id: 'SendPollRequest',
    description: `A question with ${MIN_POLL_OPTIONS} to ${MAX_POLL_OPTIONS} different options; votes arrive as \`message.poll_vote\` events and in the record's \`content.votes\`.`,
    example: { ...to, question: 'Which day suits you?', options: ['Monday', 'Tuesday', 'Wednesday'] },
  })

export type SendPollInput = z.infer<typeof SendPollBody>

/** What a poll record's content adds: the poll, and for the session's own polls the live tally. */
export const pollContentFields = {
  question: z.string().optional(),
  options: z.array(z.string()).optional(),
  selectableCount: z.number().optional().meta({ description: 'Polls: how many options one person may pick; 0: any.' }),
  votes: z
    .array(
      z.object({
        option: z.string(),
        count: z.number().int(),
        voters: z.array(z.string()).meta({ description: 'Each voter’s number, else their `<digits>@lid`.' }),
      }),
    )
    .optional()
    .meta({ description: 'Polls this session sent: the current votes per option, in the poll’s order.' }),
}
