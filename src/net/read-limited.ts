import type { Readable } from 'node:stream'

/**
 * Collects a stream, giving up as soon as it passes `maxBytes` (a chunked or lying
 * response is cut off there instead of being buffered whole): rejecting with `overLimit()`, or
 * with 'truncate' answering its first `maxBytes`.
 */
export function readLimited(
  stream: Readable,
  maxBytes: number,
  overLimit: (() => Error) | 'truncate',
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let total = 0
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length
      if (total > maxBytes) {
        stream.destroy()
        if (overLimit === 'truncate') {
          chunks.push(chunk.subarray(0, chunk.length - (total - maxBytes)))
          resolve(new Uint8Array(Buffer.concat(chunks, maxBytes)))
        } else reject(overLimit())
        return
      }
      chunks.push(chunk)
    })
    stream.once('end', () => resolve(new Uint8Array(Buffer.concat(chunks, total))))
    stream.once('error', reject)
    stream.once('close', () => {
      if (!stream.readableEnded) reject(new Error('connection closed before the body ended'))
    })
  })
}
