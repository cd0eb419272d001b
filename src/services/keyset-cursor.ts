import { validationError } from './validation-error'

/**
 * The opaque `cursor` of the API's lists: the sort key of a page's last item (a time in ms and a
 * string tiebreaker), base64url JSON. Anything else a client sends back is a 400, never a 500.
 */
export interface KeysetCursor {
  at: number
  key: string
}

export const encodeCursor = (c: KeysetCursor) => Buffer.from(JSON.stringify([c.at, c.key])).toString('base64url')

export function decodeCursor(raw: string): KeysetCursor {
  try {
    const [at, key] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as [unknown, unknown]
    if (Number.isSafeInteger(at) && typeof key === 'string') return { at: at as number, key }
  } catch {
    // reported below
  }
  throw validationError([{ path: 'cursor', message: 'is not a cursor this API returned' }])
}
