import { AwsClient } from 'aws4fetch'
import type { MediaStoreConfig } from '../../config'
import type { ByteRange, MediaStore } from './types'

type S3Config = Extract<MediaStoreConfig, { kind: 's3' }>

/** workerd sends a stream body with a Content-Length only through its FixedLengthStream. */
type FixedLength = new (length: number) => TransformStream<Uint8Array, Uint8Array>
const FixedLengthStream = (globalThis as { FixedLengthStream?: FixedLength }).FixedLengthStream

/**
 * An S3-compatible bucket (AWS, R2, MinIO…) over aws4fetch: signed fetches that run the same on
 * Node, Bun and Workers; path-style URLs `<endpoint>/<bucket>/<prefix><key>`. A file is streamed
 * (with its length, unsigned payload) to a temporary object `<prefix>tmp/<key>.<random>`, then
 * copied server-side to its name and the temporary one deleted: AWS drops a PUT whose body
 * breaks off, but not every S3-compatible server does (s3rver keeps what arrived), and the file's
 * own name must never hold half a file. A temporary object left by a crash is under `tmp/`
 * (a lifecycle rule on it cleans up).
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

  const remove = async (key: string) => {
    const response = await client.fetch(urlOf(key), { method: 'DELETE' })
    await response.body?.cancel()
    if (!response.ok && response.status !== 404) throw await failed('DELETE', response)
  }

  return {
    async put(key, body, size) {
      const temporary = `tmp/${key}.${crypto.randomUUID()}`
      const sized = FixedLengthStream ? body.pipeThrough(new FixedLengthStream(size)) : body
      try {
        const upload = await client.fetch(urlOf(temporary), {
          method: 'PUT',
          body: sized,
          headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' },
          duplex: 'half',
        } as RequestInit)
        if (!upload.ok) throw await failed('PUT', upload)
        await upload.body?.cancel()
        // Server-side copy: the bytes do not travel again
        const copy = await client.fetch(urlOf(key), {
          method: 'PUT',
          headers: { 'x-amz-copy-source': `/${config.bucket}/${config.prefix}${temporary}` },
        })
        // A copy can fail inside a 200 (S3 reports it in the body)
        const answer = await copy.text()
        if (!copy.ok || answer.includes('<Error>'))
          throw new Error(`S3 copy answered ${copy.status}: ${answer.slice(0, 200)}`)
      } finally {
        await remove(temporary).catch(() => {})
      }
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
      for (const key of keys) await remove(key)
    },
  }
}
