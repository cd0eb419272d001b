/**
 * What the CLI may print to a terminal: control characters (ESC starts ANSI sequences that
 * recolour, move the cursor or retitle the window), bidirectional controls and lone surrogates
 * are shown as `\u{…}` escapes. Names are validated on the way in; rows written before that, or
 * by hand, still reach the operator's terminal through here.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu

export const printable = (text: string): string =>
  text.replace(UNPRINTABLE, (char) => `\\u{${char.codePointAt(0)!.toString(16).padStart(4, '0')}}`)
