import { randomBytes } from 'node:crypto'

/**
 * An optimisation (bench: inbound msg/s, `test/bench/inbound.ts`).
 *
 * Random bytes drawn from the system 4 KiB at a time and handed out in slices, as Node's own
 * `randomUUID` does: each `randomBytes` call costs a trip into OpenSSL and its thread lock
 * (5 µs on the bench machine, 2% of a received message's CPU, which takes an event id and a
 * delivery id). The pool is the process's and never holds a byte given out twice; what it
 * holds is as secret as the ids it will become.
 */
const POOL_BYTES = 4096

let pool = Buffer.alloc(0)
let offset = 0

/** `size` fresh random bytes (at most the pool's size): a view, valid until the next call. */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return randomBytes(size)
  if (offset + size > pool.length) {
    pool = randomBytes(POOL_BYTES)
    offset = 0
  }
  const slice = pool.subarray(offset, offset + size)
  offset += size
  return slice
}
