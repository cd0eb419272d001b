import { z } from 'zod'

export const MAX_SESSION_NAME_CHARS = 100

/** C0 (NUL, ESC of ANSI sequences, newlines…), DEL and C1: nothing a name needs, much a log or terminal misreads. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this rule's purpose
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
/** A lone surrogate (e.g. from a "\ud800" JSON escape) has no UTF-8 form: SQLite would store invalid UTF-8. */
export const LONE_SURROGATE = /\p{Cs}/u
/** Embeddings, overrides and isolates reorder what is displayed ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf"). */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/
/** Characters that draw nothing: spaces, format characters (ZWSP, ZWJ, BOM…), marks alone, fillers, braille blank. */
const ONLY_INVISIBLE = /^[\p{White_Space}\p{Cf}\p{Mn}\p{Me}\u115f\u1160\u3164\uffa0\u2800]*$/u

/**
 * A name people read and type (a session's, a workspace's) as stored and compared: NFC-normalised
 * first, so "café" typed precomposed or as "cafe" + U+0301 is one name (and one 409), then
 * trimmed; 1 to `maxChars` characters (code points), nothing that hides or rewrites what is shown.
 */
export const visibleName = (maxChars: number) =>
  z
    .string()
    .normalize('NFC')
    .trim()
    .min(1, 'must not be empty')
    .max(maxChars, `must be at most ${maxChars} characters`)
    .refine((name) => !CONTROL.test(name), 'must not contain control characters (U+0000–U+001F, U+007F–U+009F)')
    .refine((name) => !LONE_SURROGATE.test(name), 'must not contain unpaired surrogates (not valid Unicode text)')
    .refine((name) => !BIDI_CONTROL.test(name), 'must not contain bidirectional override or isolate characters')
    .refine((name) => name === '' || !ONLY_INVISIBLE.test(name), 'must contain at least one visible character')

export const sessionName = visibleName(MAX_SESSION_NAME_CHARS).meta({
  description: `Unique per workspace; 1 to ${MAX_SESSION_NAME_CHARS} characters, NFC-normalised and trimmed; no control characters.`,
})
