import { AwsClient } from 'aws4fetch'
import type { MediaStoreConfig } from '../../config'
import { Watchdog, watchedDownload, watchedUpload } from './deadline'
import { type ByteRange, type MediaStore, MediaStoreError } from './types'

type S3Config = Extract<MediaStoreConfig, { kind: 's3' }>

/** workerd sends a stream body with a Content-Length only through its FixedLengthStream. */
type FixedLength = new (length: number) => TransformStream<Uint8Array, Uint8Array>
const FixedLengthStream = (globalThis as { FixedLengthStream?: FixedLength }).FixedLengthStream

/** Answers that have no body (a Response built with one throws). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

/**
 * What S3 said went wrong, from its XML error: the code and the message only. Its other fields
 * name the access key id (`<AWSAccessKeyId>` of InvalidAccessKeyId, SignatureDoesNotMatch) and
 * the request signed, none of which belongs in a log line.
 */
function refusalText(xml: string): string {
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(xml)?.[1]
  const message = /<Message>([^<]{1,200})<\/Message>/.exec(xml)?.[1]
  return [code, message].filter(Boolean).join(': ')
}

/** Why a fetch failed without an answer: undici's cause (`ECONNREFUSED`, `UND_ERR_SOCKET: other side closed`), else its message. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause
  const parts = [cause?.code, cause?.message ?? (error as Error)?.message].filter((part) => typeof part === 'string')
  return parts.join(': ').slice(0, 200) || 'no answer'
}

/**
 * An S3-compatible bucket (AWS, R2, MinIO…) over aws4fetch: signed fetches that run the same on
 * Node, Bun and Workers; path-style URLs `<endpoint>/<bucket>/<prefix><key>`. A file is streamed
 * (with its length, unsigned payload) to a temporary object `<prefix>tmp/<key>.<random>`, then
 * copied server-side to its name and the temporary one deleted: AWS drops a PUT whose body
 * breaks off, but not every S3-compatible server does (s3rver keeps what arrived), and the file's
 * own name must never hold half a file. A temporary object left by a crash is under `tmp/`
 * (a lifecycle rule on it cleans up).
 *
 * Every request has a deadline (`timeoutMs`, MEDIA_S3_TIMEOUT_MS) for each wait on the bucket:
 * to connect and answer, to take the next chunk of an upload, to send the next chunk of an
 * answer (see deadline.ts). Failures are MediaStoreErrors whose messages never carry the
 * access key id or the secret.
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
  // Belt and braces: whatever the bucket or the network put in a message, the credentials go.
  const scrub = (text: string) =>
    text.replaceAll(config.accessKeyId, '[access key id]').replaceAll(config.secretAccessKey, '[secret]')
  const unavailable = (message: string) => new MediaStoreError('unavailable', scrub(message))

  /** One signed request under its own deadline; the answer's body stays under it as it is read. */
  async function request(
    what: string,
    key: string,
    init: RequestInit,
    upload?: { body: ReadableStream<Uint8Array>; size: number },
  ): Promise<Response> {
    const dog = new Watchdog(config.timeoutMs)
    const timeout = () =>
      new MediaStoreError('timeout', `S3 ${what} got no answer for ${config.timeoutMs} ms (MEDIA_S3_TIMEOUT_MS)`)
    const failure = (error: unknown) => unavailable(`S3 ${what} could not reach the bucket (${networkReason(error)})`)
    const watched = upload && watchedUpload(upload.body, dog)
    const body =
      watched && (FixedLengthStream ? watched.body.pipeThrough(new FixedLengthStream(upload.size)) : watched.body)
    dog.wait()
    let response: Response
    try {
      const signed = await client.sign(urlOf(key), {
        ...init,
        ...(body ? { body, duplex: 'half' } : {}),
      } as RequestInit)
      // The signal goes to fetch itself: undici's Request follows a signal through a weak
      // reference, and the signed Request, dropped once fetch copied it, lost the abort.
      const fetching = fetch(signed, { signal: dog.signal })
      fetching.catch(() => {}) // lost to the race below when the deadline passes
      response = await dog.race(fetching)
    } catch (error) {
      dog.rest()
      // The download feeding the upload broke (a failed check, the CDN): that is the failure to report
      if (watched?.sourceError !== undefined) throw watched.sourceError
      if (!dog.fired) throw failure(error)
      watched?.stop()
      throw timeout()
    }
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) {
      dog.rest()
      return response
    }
    return new Response(watchedDownload(response.body, dog, { onTimeout: timeout, onFailure: failure }), response)
  }

  const refused = async (what: string, response: Response) => {
    const text = await response.text()
    return unavailable(`S3 ${what} answered ${response.status}: ${refusalText(text) || 'no error code'}`)
  }

  const remove = async (key: string) => {
    const response = await request('DELETE', key, { method: 'DELETE' })
    if (!response.ok && response.status !== 404) throw await refused('DELETE', response)
    await response.body?.cancel()
  }

  return {
    async put(key, body, size) {
      const temporary = `tmp/${key}.${crypto.randomUUID()}`
      let stored = false
      try {
        const upload = await request(
          'PUT',
          temporary,
          { method: 'PUT', headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' } },
          { body, size },
        )
        if (!upload.ok) throw await refused('PUT', upload)
        await upload.body?.cancel()
        // Server-side copy: the bytes do not travel again
        const copy = await request('copy', key, {
          method: 'PUT',
          headers: { 'x-amz-copy-source': `/${config.bucket}/${config.prefix}${temporary}` },
        })
        // A copy can fail inside a 200 (S3 reports it in the body)
        const answer = await copy.text()
        if (!copy.ok || answer.includes('<Error>'))
          throw unavailable(`S3 copy answered ${copy.status}: ${refusalText(answer) || 'no error code'}`)
        stored = true
      } finally {
        // After a failure the bucket may be what failed: its clean-up is not waited for
        const cleanup = remove(temporary).catch(() => {})
        if (stored) await cleanup
      }
    },

    async get(key, range?: ByteRange) {
      const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {}
      const response = await request('GET', key, { headers })
      if (response.status === 404) {
        await response.body?.cancel()
        return undefined
      }
      if (!response.ok || !response.body) throw await refused('GET', response)
      return response.body
    },

    async delete(keys) {
      for (const key of keys) await remove(key)
    },
  }
}
