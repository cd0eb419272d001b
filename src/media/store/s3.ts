import { AwsClient } from 'aws4fetch'
import type { MediaStoreConfig } from '../../config'
import type { ByteRange, MediaStore } from './types'

type S3Config = Extract<MediaStoreConfig, { kind: 's3' }>

/** workerd sends a stream body with a Content-Length only through its FixedLengthStream. */
type FixedLength = new (length: number) => TransformStream<Uint8Array, Uint8Array>
const FixedLengthStream = (globalThis as { FixedLengthStream?: FixedLength }).FixedLengthStream

/**
 * An S3-compatible bucket (AWS, R2, MinIO…) over aws4fetch: signed fetches that run the same on
 * Node, Bun and Workers. One PUT per file, streamed with its length and an unsigned payload
 * (S3 writes an object only when its PUT completes, so a body that errors leaves nothing);
 * path-style URLs `<endpoint>/<bucket>/<prefix><key>`.
 */
export function createS3MediaStore(config: S3Config): MediaStore {
  // No retries of its own: a streamed body cannot be sent twice.
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    region: config.region,
    service: 's3',
    retries: 0,
  })
  const base = `${config.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(config.bucket)}/`
  const urlOf = (key: string) => `${base}${config.prefix.split('/').map(encodeURIComponent).join('/')}${key}`
  const failed = async (what: string, response: Response) => {
    const text = await response.text().catch(() => '')
    return new Error(`S3 ${what} answered ${response.status}: ${text.slice(0, 200)}`)
  }

  return {
    async put(key, body, size) {
      const sized = FixedLengthStream ? body.pipeThrough(new FixedLengthStream(size)) : body
      const response = await client.fetch(urlOf(key), {
        method: 'PUT',
        body: sized,
        headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' },
        duplex: 'half',
      } as RequestInit)
      if (!response.ok) throw await failed('PUT', response)
      await response.body?.cancel()
    },

    async get(key, range?: ByteRange) {
      const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {}
      const response = await client.fetch(urlOf(key), { headers })
      if (response.status === 404) {
        await response.body?.cancel()
        return undefined
      }
      if (!response.ok || !response.body) throw await failed('GET', response)
      return response.body
    },

    async delete(keys) {
      for (const key of keys) {
        const response = await client.fetch(urlOf(key), { method: 'DELETE' })
        await response.body?.cancel()
        if (!response.ok && response.status !== 404) throw await failed('DELETE', response)
      }
    },
  }
}
