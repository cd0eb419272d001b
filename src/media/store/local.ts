import { createWriteStream } from 'node:fs'
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { randomUUID } from 'node:crypto'
import type { ByteRange, MediaStore } from './types'

/** Unfinished writes older than this (a crash mid-write) are removed at start. */
const STALE_TEMP_MS = 60 * 60 * 1000

/**
 * Files in a directory: `<dir>/<first 2 hex>/<key>`, written to `<dir>/tmp/` first and renamed
 * into place once complete, so a reader never sees half a file and a crash leaves only a temp
 * file (removed at the next start).
 */
export function createLocalMediaStore(dir: string): MediaStore {
  const temp = join(dir, 'tmp')
  const pathOf = (key: string) => join(dir, key.slice(0, 2), key)
  let ready: Promise<void> | undefined
  const prepare = () =>
    (ready ??= (async () => {
      await mkdir(temp, { recursive: true })
      await removeStaleTemps(temp)
    })())

  return {
    async put(key, body, size) {
      await prepare()
      const partial = join(temp, `${key}.${randomUUID()}`)
      try {
        // pipeline, not pipeTo(Writable.toWeb(…)): Node 20's bridge queues every chunk (no backpressure)
        await pipeline(
          Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
          createWriteStream(partial, { flags: 'wx' }),
        )
        const written = (await stat(partial)).size
        if (written !== size) throw new Error(`wrote ${written} bytes, expected ${size}`)
        await mkdir(join(dir, key.slice(0, 2)), { recursive: true })
        await rename(partial, pathOf(key))
      } catch (error) {
        await rm(partial, { force: true })
        throw error
      }
    },

    async get(key, range?: ByteRange) {
      // Opened first: a file removed while it is read (pruned, evicted) is still read whole.
      const handle = await open(pathOf(key), 'r').catch(() => undefined)
      if (!handle) return undefined
      const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {})
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>
    },

    async delete(keys) {
      await Promise.all(keys.map((key) => unlink(pathOf(key)).catch(() => {})))
    },
  }
}

async function removeStaleTemps(temp: string): Promise<void> {
  const now = Date.now()
  for (const name of await readdir(temp).catch(() => [] as string[])) {
    const path = join(temp, name)
    const info = await stat(path).catch(() => undefined)
    if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(path, { force: true })
  }
}
