import { createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { getMediaKeys, proto } from '@whiskeysockets/baileys'
import { mediaAttachment, type MediaAttachment, type MediaKeyType } from './media-attachment'
import type { MediaFetch, MediaResponse } from './media-fetch'
import { mediaDownloadUrl } from './media-url'
import { requestSignal } from '../../../net/request-signal'
import { EngineError, type MediaDownload, type MediaDownloadOptions } from '../port'

/** A file to fetch: its keys' kind (a history chunk's is `md-msg-hist`) and where and what it is. */
export interface DownloadableAttachment {
  keyType: MediaKeyType | 'md-msg-hist'
  media: MediaAttachment['media']
}

/** The truncated HMAC-SHA256 after the ciphertext; AES-CBC adds 1–16 bytes of padding. */
const MAC_BYTES = 10
const MAX_OVERHEAD = 16 + MAC_BYTES
/** Decrypted bytes withheld until the checks pass (see DecryptAndCheck). */
const HOLD_BACK = 16

/**
 * Fetches a message's file from WhatsApp's CDN and decrypts it as it streams (AES-256-CBC under
 * keys derived from its media key), holding back the 10-byte MAC that ends the upload. The
 * stream ends only after the MAC (over IV and ciphertext), the encrypted SHA-256, the padding,
 * the declared length and the plaintext SHA-256 all check out; otherwise it errors (corrupt).
 * Baileys' own download checks none of these. Nothing is buffered beyond one chunk.
 *
 * Only from where mediaDownloadUrl allows (https, WhatsApp's media hosts or `hosts`), through
 * `fetchMedia` (the address guard), and only a 200 is a file: a redirect is never followed.
 */
export async function downloadMedia(
  payload: Uint8Array,
  fetchMedia: MediaFetch,
  hosts: MediaHosts,
  options: MediaDownloadOptions,
): Promise<MediaDownload> {
  const attachment = mediaAttachment(proto.Message.decode(payload))
  if (!attachment) throw new EngineError('no_media', 'the message carries no file')
  return downloadAttachment(attachment, fetchMedia, hosts, options)
}

/** The media hosts allowed besides WhatsApp's, and where a file with only a direct path is. */
export interface MediaHosts {
  allowed: readonly string[]
  /** media_conn's host (the simulator's); undefined: mmg.whatsapp.net. */
  fallback?: string
}

/** A file on WhatsApp's CDN, of a message or of a history-sync notification: see downloadMedia. */
export async function downloadAttachment(
  attachment: DownloadableAttachment,
  fetchMedia: MediaFetch,
  hosts: MediaHosts,
  options: MediaDownloadOptions,
): Promise<MediaDownload> {
  const { media } = attachment
  const size = Number(media.fileLength ?? 0)
  if (!Number.isSafeInteger(size) || size < 0)
    throw new EngineError('corrupt', 'the message declares no valid file size')
  if (size > options.maxBytes) throw new EngineError('too_large', `the file is ${size} bytes`)
  const place = mediaDownloadUrl(media, hosts.allowed, hosts.fallback)
  if (!place.ok) throw new EngineError('corrupt', `the message names no WhatsApp media URL: ${place.refused}`)

  // Aborted by the idle timer, or by the caller (the gateway stopping); done() detaches it from the
  // caller's long-lived signal (request-signal.ts: why not AbortSignal.any)
  const request = requestSignal(options.signal)
  const signal = request.signal
  const idle = new IdleTimer(options.idleTimeoutMs, () => request.abort())
  const done = () => {
    idle.clear()
    request.release()
  }
  let response: MediaResponse
  try {
    response = await fetchMedia(place.url, {
      signal,
      headers: { Origin: 'https://web.whatsapp.com' },
    })
  } catch (error) {
    done()
    throw new EngineError(
      signal.aborted ? 'timeout' : 'upstream',
      `the media host could not be reached (${(error as Error).message})`,
    )
  }
  if (response.status === 404 || response.status === 410) {
    done()
    await response.body?.cancel().catch(() => {})
    throw new EngineError('gone', `the media host answered ${response.status}`)
  }
  const declared = response.declaredLength
  const ok = response.status === 200
  if (!ok || !response.body || declared > size + MAX_OVERHEAD) {
    done()
    await response.body?.cancel().catch(() => {})
    throw new EngineError(
      ok ? 'corrupt' : 'upstream',
      ok
        ? `the media host sent ${declared} bytes for a ${size}-byte file`
        : `the media host answered ${response.status}`,
    )
  }
  const keys = await getMediaKeys(media.mediaKey!, attachment.keyType)
  const check = new DecryptAndCheck(keys, media, size)
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        idle.touch()
        const plain = check.push(chunk)
        if (plain.byteLength > 0) controller.enqueue(plain)
      },
      flush(controller) {
        done()
        const last = check.end()
        if (last.byteLength > 0) controller.enqueue(last)
      },
    }),
  )
  return { body: withCleanup(body, () => done(), signal), size }
}

/** The decryption and every check, fed chunk by chunk. */
class DecryptAndCheck {
  readonly #decipher
  readonly #mac
  readonly #encHash = createHash('sha256')
  readonly #plainHash = createHash('sha256')
  /** The newest bytes, which may be the MAC: never decrypted until more arrive or the stream ends. */
  #held = Buffer.alloc(0)
  /**
   * The newest decrypted bytes, given only once every check passed: a reader (an S3 PUT of the
   * declared length) must never have the whole file before the stream errors. The decipher's own
   * hold-back is not enough: a file whose length is a multiple of 16 is out whole before final().
   */
  #heldPlain: Buffer = Buffer.alloc(0)
  #received = 0
  #plainBytes = 0

  constructor(
    keys: { iv: Uint8Array; cipherKey: Uint8Array; macKey?: Uint8Array },
    private readonly media: MediaAttachment['media'],
    private readonly size: number,
  ) {
    this.#decipher = createDecipheriv('aes-256-cbc', keys.cipherKey, keys.iv)
    this.#mac = createHmac('sha256', keys.macKey!).update(keys.iv)
  }

  push(chunk: Uint8Array): Uint8Array {
    this.#received += chunk.byteLength
    if (this.#received > this.size + MAX_OVERHEAD)
      throw corrupt(`more than the ${this.size} bytes the message declares`)
    this.#encHash.update(chunk)
    const all = this.#held.length > 0 ? Buffer.concat([this.#held, chunk]) : Buffer.from(chunk)
    const cut = Math.max(0, all.length - MAC_BYTES)
    this.#held = all.subarray(cut)
    return this.#release(this.#plain(this.#decipher.update(this.#macUpdate(all.subarray(0, cut)))))
  }

  end(): Uint8Array {
    if (this.#held.length < MAC_BYTES) throw corrupt('the upload is shorter than its MAC')
    const expected = this.#mac.digest().subarray(0, MAC_BYTES)
    if (!timingSafeEqual(expected, this.#held))
      throw corrupt('the MAC does not match: the file was altered or the keys are wrong')
    const encSha = this.media.fileEncSha256
    if (encSha?.length && !timingSafeEqual(this.#encHash.digest(), Buffer.from(encSha)))
      throw corrupt('the encrypted SHA-256 does not match')
    let last: Buffer
    try {
      last = this.#plain(this.#decipher.final())
    } catch {
      throw corrupt('the padding is wrong')
    }
    if (this.#plainBytes !== this.size)
      throw corrupt(`${this.#plainBytes} bytes where the message declares ${this.size}`)
    if (!timingSafeEqual(this.#plainHash.digest(), Buffer.from(this.media.fileSha256!)))
      throw corrupt('the SHA-256 of the file does not match')
    return Buffer.concat([this.#heldPlain, last])
  }

  /** All but the last HOLD_BACK bytes decrypted so far. */
  #release(bytes: Buffer): Buffer {
    const all = this.#heldPlain.length > 0 ? Buffer.concat([this.#heldPlain, bytes]) : bytes
    const cut = Math.max(0, all.length - HOLD_BACK)
    this.#heldPlain = all.subarray(cut)
    return all.subarray(0, cut)
  }

  #macUpdate(bytes: Buffer): Buffer {
    this.#mac.update(bytes)
    return bytes
  }

  #plain(bytes: Buffer): Buffer {
    this.#plainBytes += bytes.length
    this.#plainHash.update(bytes)
    return bytes
  }
}

const corrupt = (why: string) => new EngineError('corrupt', `the downloaded file failed its checks: ${why}`)

/** Aborts the download when no chunk arrived for `ms`. */
class IdleTimer {
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.touch()
  }

  touch(): void {
    clearTimeout(this.#timer)
    this.#timer = setTimeout(this.onIdle, this.ms)
  }

  clear(): void {
    clearTimeout(this.#timer)
  }
}

/** The stream, calling `cleanup` once when it ends, errors or its reader cancels it. */
function withCleanup(
  stream: ReadableStream<Uint8Array>,
  cleanup: () => void,
  aborted: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) {
          cleanup()
          controller.close()
        } else controller.enqueue(value)
      } catch (error) {
        cleanup()
        if (error instanceof EngineError) controller.error(error)
        else if (aborted.aborted) controller.error(new EngineError('timeout', 'the media host stopped sending'))
        else controller.error(new EngineError('upstream', `the download broke off (${(error as Error).message})`))
      }
    },
    cancel(reason) {
      cleanup()
      return reader.cancel(reason)
    },
  })
}
