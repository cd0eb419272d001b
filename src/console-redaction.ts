/**
 * What a dependency passes to console.* is made safe to log: libsignal printed whole Signal
 * sessions (private, root and chain keys as Buffers) and could again in another version, so every
 * byte array, every field named like a secret and every run of text that looks like a key is
 * replaced before anything is formatted. Over-redaction costs a debug line some detail; a key
 * in a log costs the account.
 */

/** Field names whose values are secrets wherever they appear (libsignal sessions, Baileys creds, configs, headers). */
const SECRET_NAME = /key|priv|secret|seed|token|passw|signature|cookie|authorization|credential/i

/** How far into an argument the copy goes, and how much of each level it keeps (as util.inspect would show). */
const MAX_DEPTH = 6
const MAX_ENTRIES = 100
const MAX_STRING = 10_000
/** Values copied per argument at most (a 100-character string counts as one more): a sub-object shared by every field of every level stays bounded too. */
const MAX_VALUES = 2_000

const REDACTED = '[redacted]'

/** util.inspect's Buffers (`<Buffer 0a 1b …>`) and spaced hex of 16 bytes or more. */
const INSPECTED_BYTES = /<Buffer[^>]*>|\b(?:[0-9a-f]{2} ){15,}[0-9a-f]{2}\b/gi
/** Hex of 16 bytes or more. */
const HEX_RUN = /\b[0-9a-f]{32,}\b/gi
/** Base64 (or base64url) of 30 bytes or more; a 32-byte key is 43-44 characters. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{40,}={0,2}/g
/** Base64 of random bytes mixes digits and both cases; a long path or a word does not. */
const looksRandom = (run: string) => /\d/.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run)

/** Text with anything that looks like key material (inspected Buffers, long hex, base64) replaced. */
export function redactText(text: string): string {
  const bounded = text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length - MAX_STRING} more)` : text
  return bounded
    .replace(INSPECTED_BYTES, REDACTED)
    .replace(HEX_RUN, REDACTED)
    .replace(BASE64_RUN, (run) => (looksRandom(run) ? REDACTED : run))
}

const isBytes = (value: object): value is ArrayBufferView | ArrayBuffer =>
  ArrayBuffer.isView(value) ||
  value instanceof ArrayBuffer ||
  (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)

/**
 * A copy of a console argument with no key material: byte arrays become their length, fields
 * named like secrets `[redacted]` (numbers and booleans kept: `keyId`, `closed`), strings go
 * through redactText, errors become their redacted stack. Cycles, depth and breadth are bounded.
 */
export function redactArgument(value: unknown): unknown {
  return copy(value, 0, { ancestors: new WeakSet(), left: MAX_VALUES })
}

interface Walk {
  /** The objects being copied above this one: meeting one again is a cycle. */
  ancestors: WeakSet<object>
  /** Values still allowed in this argument's copy. */
  left: number
}

function copy(value: unknown, depth: number, walk: Walk): unknown {
  if (--walk.left < 0) return '[…]'
  if (typeof value === 'string') {
    walk.left -= Math.floor(Math.min(value.length, MAX_STRING) / 100) // a long string counts as many values
    return redactText(value)
  }
  if (typeof value !== 'object' || value === null) return value
  if (isBytes(value)) return `[${value.byteLength} bytes]`
  if (value instanceof Error) return redactText(value.stack ?? `${value.name}: ${value.message}`)
  if (walk.ancestors.has(value)) return '[Circular]'
  if (depth >= MAX_DEPTH) return '[…]'
  walk.ancestors.add(value)
  try {
    if (Array.isArray(value)) return value.slice(0, MAX_ENTRIES).map((item) => copy(item, depth + 1, walk))
    if (value instanceof Map)
      return new Map(
        [...value]
          .slice(0, MAX_ENTRIES)
          .map(([key, item]) => [copy(key, depth + 1, walk), field(key, item, depth, walk)]),
      )
    if (value instanceof Set)
      return new Set([...value].slice(0, MAX_ENTRIES).map((item) => copy(item, depth + 1, walk)))
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).slice(0, MAX_ENTRIES)) {
      out[redactText(key)] = field(key, readField(value, key), depth, walk)
    }
    return out
  } finally {
    walk.ancestors.delete(value)
  }
}

function field(name: unknown, value: unknown, depth: number, walk: Walk): unknown {
  const secret = typeof name === 'string' && SECRET_NAME.test(name)
  if (secret && value !== null && value !== undefined && typeof value !== 'number' && typeof value !== 'boolean')
    return REDACTED
  return copy(value, depth + 1, walk)
}

/** A getter may throw; the line is still written. */
function readField(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key]
  } catch {
    return '[unreadable]'
  }
}
