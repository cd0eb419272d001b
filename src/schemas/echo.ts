/** How much of a client's value an error message may repeat back. */
export const MAX_ECHOED_CHARS = 40

/** The first `max` characters of a value, with an ellipsis when something was cut. */
export function clip(value: string, max = MAX_ECHOED_CHARS): string {
  const chars = [...value.slice(0, max * 2)] // by code point, so no surrogate pair is split
  return chars.length > max || value.length > max * 2 ? `${chars.slice(0, max).join('')}…` : value
}

/**
 * A client's value quoted for an error message, at most ~40 characters: enough to recognise
 * it, never enough to turn a 1 MB bad value into a 1 MB error (or to mirror a secret whole).
 */
export const echo = (value: unknown): string => JSON.stringify(clip(typeof value === 'string' ? value : String(value)))
