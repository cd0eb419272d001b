import { z } from 'zod'

export const MAX_SESSION_NAME_CHARS = 100

/** C0 (NUL, ESC of ANSI sequences, newlines…), DEL and C1: nothing a name needs, much a log or terminal misreads. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this rule's purpose
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
/** The same but the line feed: text people write on several lines (a description, a card). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this rule's purpose
export const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/
/** A lone surrogate (e.g. from a "\ud800" JSON escape) has no UTF-8 form: SQLite would store invalid UTF-8. */
export const LONE_SURROGATE = /\p{Cs}/u
/** Embeddings, overrides and isolates reorder what is displayed ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf"). */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/
/** Characters that draw nothing: spaces, format characters (ZWSP, ZWJ, BOM…), marks alone, fillers, braille blank. */
const ONLY_INVISIBLE = /^[\p{White_Space}\p{Cf}\p{Mn}\p{Me}\u115f\u1160\u3164\uffa0\u2800]*$/u

/**
 * Text people read and type, as stored and compared: NFC-normalised first, so "café" typed
 * precomposed or as "cafe" + U+0301 is one name (and one 409), then trimmed; 1 to `maxChars`
 * characters, nothing that hides or rewrites what is shown. On one line unless `lines: 'many'`,
 * which lets the line feed through (and nothing else of C0: a CR, a tab, an escape are refused).
 */
export const visibleText = (maxChars: number, { lines = 'one' }: { lines?: 'one' | 'many' } = {}) => {
  const control = lines === 'one' ? CONTROL : CONTROL_BUT_NEWLINE
  const controlRule =
    lines === 'one'
      ? 'must not contain control characters (U+0000–U+001F, U+007F–U+009F)'
      : 'must not contain control characters (U+0000–U+001F but the line feed, U+007F–U+009F)'
  return z
    .string()
    .normalize('NFC')
    .trim()
    .min(1, 'must not be empty')
    .max(maxChars, `must be at most ${maxChars} characters`)
    .refine((text) => !control.test(text), controlRule)
    .refine((text) => !LONE_SURROGATE.test(text), 'must not contain unpaired surrogates (not valid Unicode text)')
    .refine((text) => !BIDI_CONTROL.test(text), 'must not contain bidirectional override or isolate characters')
    .refine((text) => text === '' || !ONLY_INVISIBLE.test(text), 'must contain at least one visible character')
}

/** A name (a session's, a workspace's, a group's subject): visible text on one line. */
export const visibleName = (maxChars: number) => visibleText(maxChars)

export const sessionName = visibleName(MAX_SESSION_NAME_CHARS).meta({
  description: `Unique per workspace; 1 to ${MAX_SESSION_NAME_CHARS} characters, NFC-normalised and trimmed; no control characters.`,
})
