import { EngineError } from '../port'

/**
 * A protobuf message's top-level fields read as its bytes stream in, holding at most one field
 * at a time: a history chunk inflates to tens of megabytes (or, forged, to gigabytes), and only
 * one conversation of it is ever needed at once. Fields not wanted, and wanted ones longer than
 * `maxFieldBytes`, are skipped as they stream past without being kept.
 */
export type StreamedField =
  | { field: number; bytes: Uint8Array }
  | { field: number; varint: number }
  /** A wanted field longer than maxFieldBytes, skipped. */
  | { field: number; oversized: number }

export interface FieldLimits {
  /** Field numbers whose values are wanted; every other field is skipped. */
  wanted: ReadonlySet<number>
  maxFieldBytes: number
}

const WIRE_VARINT = 0
const WIRE_FIXED64 = 1
const WIRE_BYTES = 2
const WIRE_FIXED32 = 5

export async function* streamFields(
  source: AsyncIterable<Uint8Array>,
  limits: FieldLimits,
): AsyncGenerator<StreamedField> {
  const queue = new ByteQueue()
  /** What the bytes at the head of the queue are. */
  let state: { kind: 'tag' } | { kind: 'collect'; field: number; length: number } | { kind: 'skip'; left: number } = {
    kind: 'tag',
  }
  for await (const chunk of source) {
    queue.push(chunk)
    for (;;) {
      if (state.kind === 'skip') {
        state.left -= queue.drop(state.left)
        if (state.left > 0) break
        state = { kind: 'tag' }
        continue
      }
      if (state.kind === 'collect') {
        if (queue.length < state.length) break
        yield { field: state.field, bytes: queue.take(state.length) }
        state = { kind: 'tag' }
        continue
      }
      const tag = queue.readVarint()
      if (tag === undefined) break
      const field = Math.floor(tag / 8)
      const wire = tag % 8
      if (field === 0) throw corrupt('a field numbered 0')
      const wanted = limits.wanted.has(field)
      if (wire === WIRE_VARINT) {
        const value = queue.readVarint()
        if (value === undefined) {
          queue.unread(tag)
          break
        }
        if (wanted) yield { field, varint: value }
        continue
      }
      if (wire === WIRE_FIXED64 || wire === WIRE_FIXED32) {
        state = { kind: 'skip', left: wire === WIRE_FIXED64 ? 8 : 4 }
        continue
      }
      if (wire !== WIRE_BYTES) throw corrupt(`wire type ${wire}`)
      const length = queue.readVarint()
      if (length === undefined) {
        queue.unread(tag)
        break
      }
      if (wanted && length <= limits.maxFieldBytes) state = { kind: 'collect', field, length }
      else {
        if (wanted) yield { field, oversized: length }
        state = { kind: 'skip', left: length }
      }
    }
  }
  if (state.kind !== 'tag' || queue.length > 0 || queue.midField) throw corrupt('the message ends inside a field')
}

const corrupt = (why: string) => new EngineError('corrupt', `the history chunk is not a HistorySync: ${why}`)

/**
 * Bytes waiting to be read, as the chunks they came in (never copied into one buffer). A varint
 * read that finds too few bytes consumes nothing.
 */
class ByteQueue {
  #chunks: Uint8Array[] = []
  /** Bytes of the first chunk already read. */
  #offset = 0
  #length = 0
  /** A tag read whose field could not be read yet, to read again once more bytes came. */
  #pushedBack: number[] = []

  get length(): number {
    return this.#length
  }

  /** Whether a read stopped halfway (a tag read, its field not yet). */
  get midField(): boolean {
    return this.#pushedBack.length > 0
  }

  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return
    this.#chunks.push(chunk)
    this.#length += chunk.byteLength
  }

  /** Puts a varint back at the head (its bytes were already consumed). */
  unread(value: number): void {
    this.#pushedBack.push(value)
  }

  /** A varint (up to 2^53), or undefined when the queue does not hold all of it yet. */
  readVarint(): number | undefined {
    const pushed = this.#pushedBack.pop()
    if (pushed !== undefined) return pushed
    let value = 0
    let scale = 1
    let index = 0
    for (const byte of this.#bytesFromHead(10)) {
      value += (byte & 0x7f) * scale
      scale *= 128
      index++
      if ((byte & 0x80) === 0) {
        if (value > Number.MAX_SAFE_INTEGER) throw corrupt('a varint too large')
        this.drop(index)
        return value
      }
    }
    if (index >= 10) throw corrupt('a varint longer than 10 bytes')
    return undefined
  }

  /** Removes up to `n` bytes from the head; answers how many. */
  drop(n: number): number {
    let left = Math.min(n, this.#length)
    const dropped = left
    while (left > 0) {
      const head = this.#chunks[0]!
      const available = head.byteLength - this.#offset
      if (available > left) {
        this.#offset += left
        break
      }
      left -= available
      this.#chunks.shift()
      this.#offset = 0
    }
    this.#length -= dropped
    return dropped
  }

  /** Removes exactly `n` bytes (the queue holds them) and answers them as one array. */
  take(n: number): Uint8Array {
    const head = this.#chunks[0]
    if (head && head.byteLength - this.#offset >= n) {
      // A view, never a copy (and a plain Uint8Array whatever the chunk's class)
      const bytes = new Uint8Array(head.buffer, head.byteOffset + this.#offset, n)
      this.drop(n)
      return bytes
    }
    const bytes = new Uint8Array(n)
    let filled = 0
    let offset = this.#offset
    for (const chunk of this.#chunks) {
      const part = chunk.subarray(offset, offset + (n - filled))
      bytes.set(part, filled)
      filled += part.byteLength
      offset = 0
      if (filled === n) break
    }
    this.drop(n)
    return bytes
  }

  *#bytesFromHead(max: number): Generator<number> {
    let given = 0
    let offset = this.#offset
    for (const chunk of this.#chunks) {
      for (let i = offset; i < chunk.byteLength && given < max; i++, given++) yield chunk[i]!
      if (given >= max) return
      offset = 0
    }
  }
}
