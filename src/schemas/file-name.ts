import { BIDI_CONTROL, CONTROL, LONE_SURROGATE, visibleName } from './session-name'

export const MAX_FILE_NAME_CHARS = 255
/** What a file name made from a URL is cut to, extension kept. */
const MADE_NAME_CHARS = 120
export const DEFAULT_DOCUMENT_NAME = 'document'

const SEPARATOR = /[/\\]/

/**
 * A document's name as a client gives it: a visible name (no control or bidirectional
 * characters: "invoice\u202Efdp.exe" would show as "invoiceexe.pdf") that is one file name, not
 * a path (no `/` or `\`, not `.` or `..`), at most 255 characters.
 */
export const fileName = visibleName(MAX_FILE_NAME_CHARS)
  .refine((name) => !SEPARATOR.test(name), 'must be a file name, without / or \\')
  .refine((name) => name !== '.' && name !== '..', 'must be a file name, not . or ..')

/**
 * A name for a document that came without one: the URL's last path segment, percent-decoded,
 * with what a file name cannot hold removed (separators, control and bidirectional characters,
 * lone surrogates, leading dots) and cut to 120 characters keeping its extension. Undefined when
 * nothing usable is left (a data: URL, `https://host/`, `…/%00`).
 */
export function fileNameFromUrl(url: string): string | undefined {
  let segment: string
  try {
    segment = new URL(url).pathname.split('/').at(-1) ?? ''
  } catch {
    return undefined
  }
  let decoded: string
  try {
    decoded = decodeURIComponent(segment)
  } catch {
    decoded = segment // a stray % is kept as it is
  }
  const cleaned = [...decoded.normalize('NFC')]
    .filter(
      (char) => !CONTROL.test(char) && !BIDI_CONTROL.test(char) && !LONE_SURROGATE.test(char) && !SEPARATOR.test(char),
    )
    .join('')
    .trim()
    .replace(/^\.+/, '')
  if (cleaned === '' || fileName.safeParse(cleaned).success === false) return undefined
  return clipKeepingExtension(cleaned, MADE_NAME_CHARS)
}

function clipKeepingExtension(name: string, max: number): string {
  const chars = [...name]
  if (chars.length <= max) return name
  const dot = name.lastIndexOf('.')
  const ext = dot > 0 ? [...name.slice(dot)] : []
  if (ext.length === 0 || ext.length > 16) return chars.slice(0, max).join('')
  return [...chars.slice(0, max - ext.length), ...ext].join('')
}
