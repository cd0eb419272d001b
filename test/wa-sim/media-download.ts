// How a phone fetches and opens WhatsApp media: HTTPS GET (trusting the simulator CA), check the
// encrypted SHA-256 and the truncated HMAC, AES-256-CBC decrypt, check the plaintext SHA-256.
import { getMediaKeys, hmacSign, sha256 } from '@whiskeysockets/baileys'
import type { MediaType, proto } from '@whiskeysockets/baileys'
import { createDecipheriv } from 'node:crypto'
import { Agent, get } from 'node:https'

const fetchBytes = (url: string, caPem: string): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const agent = new Agent({ ca: caPem, keepAlive: false })
    get(url, { agent }, (response) => {
      if (response.statusCode !== 200) {
        response.resume()
        reject(new Error(`media download ${url} failed with ${response.statusCode}`))
        return
      }
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve(Buffer.concat(chunks)))
      response.on('error', reject)
    }).on('error', reject)
  })

type MediaFields = Pick<proto.Message.IImageMessage, 'url' | 'directPath' | 'mediaKey' | 'fileSha256' | 'fileEncSha256'>

export const downloadAndDecryptMedia = async (
  media: MediaFields,
  type: MediaType,
  mediaHostUrl: (directPath: string) => string,
  caPem: string,
): Promise<Buffer> => {
  const url = media.directPath ? mediaHostUrl(media.directPath) : media.url
  if (!url || !media.mediaKey) throw new Error('media message without url or mediaKey')
  const body = await fetchBytes(url, caPem)
  if (media.fileEncSha256 && !Buffer.from(sha256(body)).equals(Buffer.from(media.fileEncSha256)))
    throw new Error('media encrypted SHA-256 mismatch')
  const { iv, cipherKey, macKey } = await getMediaKeys(media.mediaKey, type)
  const encrypted = body.subarray(0, body.length - 10)
  const mac = hmacSign(Buffer.concat([iv, encrypted]), macKey!).subarray(0, 10)
  if (!mac.equals(body.subarray(body.length - 10))) throw new Error('media MAC mismatch')
  const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv)
  const plain = Buffer.concat([decipher.update(encrypted), decipher.final()])
  if (media.fileSha256 && !Buffer.from(sha256(plain)).equals(Buffer.from(media.fileSha256)))
    throw new Error('media SHA-256 mismatch')
  return plain
}
