/** Bytes [start, end] of an object, both inclusive. */
export interface ByteRange {
  start: number
  end: number
}

/**
 * Where inbound files are kept once fetched and checked. Objects are written whole or not at
 * all: `put` leaves nothing behind when its body errors (a failed check, a broken download), so
 * whatever `get` finds is complete. Keys are opaque hex names (see mediaKey).
 */
export interface MediaStore {
  /** Writes `body` (exactly `size` bytes) under `key`, replacing any object there. */
  put(key: string, body: ReadableStream<Uint8Array>, size: number): Promise<void>
  /** The object's bytes, or a range of them; undefined when there is no such object. */
  get(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | undefined>
  delete(keys: string[]): Promise<void>
}

/**
 * A store that could not do what was asked: `timeout`, it kept a request waiting past its
 * deadline; `unavailable`, it could not be reached or answered an error. Its message is fit for
 * the log: it never carries a credential.
 */
export class MediaStoreError extends Error {
  override readonly name = 'MediaStoreError'

  constructor(
    readonly kind: 'timeout' | 'unavailable',
    message: string,
  ) {
    super(message)
  }
}
