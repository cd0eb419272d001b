import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto'
import { getEventListeners } from 'node:events'
import { getMediaKeys } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { type DownloadableAttachment, downloadAttachment } from '../../../../src/engine/whatsapp/media/media-download'
import type { MediaFetch } from '../../../../src/engine/whatsapp/media/media-fetch'

/** What a long-lived signal keeps of the signals made from it with AbortSignal.any (Node's own set). */
const dependantsOf = (signal: AbortSignal): number => {
  const symbol = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals')
  return symbol ? ((signal as unknown as Record<symbol, Set<unknown>>)[symbol]?.size ?? 0) : 0
}

/** A file encrypted as a phone uploads it (AES-256-CBC, then the truncated HMAC), and its message fields. */
async function uploaded(plain: Buffer): Promise<{ attachment: DownloadableAttachment; body: Buffer }> {
  const mediaKey = randomBytes(32)
  const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, 'image')
  const cipher = createCipheriv('aes-256-cbc', cipherKey, iv)
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final()])
  const mac = createHmac('sha256', macKey!)
    .update(Buffer.concat([iv, encrypted]))
    .digest()
    .subarray(0, 10)
  const body = Buffer.concat([encrypted, mac])
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest()
  return {
    body,
    attachment: {
      keyType: 'image',
      media: {
        directPath: '/v/t62.7118-24/1_2_n.enc',
        mediaKey,
        fileSha256: sha256(plain),
        fileEncSha256: sha256(body),
        fileLength: plain.length,
      },
    },
  }
}

const OPTIONS = { maxBytes: 1024 * 1024, idleTimeoutMs: 5_000 }

/**
 * A download's signal joins the gateway's long-lived stop signal for as long as it runs, and lets
 * go of it when it ends however it ends: an AbortSignal.any over the stop signal stayed in its
 * dependant set for good on Node 20 (nodejs/node#55351), one per download.
 */
describe('a media download’s hold on the stop signal', () => {
  it('leaves nothing on it after hundreds of downloads, read to the end or refused', async () => {
    const plain = randomBytes(3000)
    const { attachment, body } = await uploaded(plain)
    const served: MediaFetch = async () => ({
      status: 200,
      declaredLength: body.length,
      body: new Blob([body]).stream(),
    })
    const gone: MediaFetch = async () => ({ status: 404, declaredLength: Number.NaN, body: null })
    const stop = new AbortController()
    const options = { ...OPTIONS, signal: stop.signal }

    for (let i = 0; i < 200; i++) {
      const download = await downloadAttachment(attachment, served, { allowed: [] }, options)
      expect(Buffer.from(await new Response(download.body).arrayBuffer())).toEqual(plain)
      await expect(downloadAttachment(attachment, gone, { allowed: [] }, options)).rejects.toMatchObject({
        kind: 'gone',
      })
    }
    expect(dependantsOf(stop.signal)).toBe(0)
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0)
  })

  it('still ends a download under way when the gateway stops', async () => {
    const { attachment, body } = await uploaded(randomBytes(3000))
    let hostSignal: AbortSignal | undefined
    // The host sends the first half, then nothing more until the request is aborted
    const stalling: MediaFetch = async (_, init) => {
      hostSignal = init.signal
      return {
        status: 200,
        declaredLength: body.length,
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(body.subarray(0, 1500))
            init.signal.addEventListener('abort', () => controller.error(init.signal.reason))
          },
        }),
      }
    }
    const stop = new AbortController()
    const download = await downloadAttachment(
      attachment,
      stalling,
      { allowed: [] },
      { ...OPTIONS, signal: stop.signal },
    )
    const reading = new Response(download.body).arrayBuffer()
    stop.abort()
    await expect(reading).rejects.toThrow(/stopped sending/)
    expect(hostSignal?.aborted).toBe(true)
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0)
  })
})
