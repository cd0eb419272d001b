import { fileTypeFromBuffer } from 'file-type'
import { imageSize } from 'image-size'

export interface Sniffed {
  /** From the bytes' magic numbers, never from a header or file name the client chose. */
  mimetype: string
  ext: string
}

/** The type the bytes really are, or undefined when no known format matches. */
export async function sniffType(bytes: Uint8Array): Promise<Sniffed | undefined> {
  const found = await fileTypeFromBuffer(bytes)
  return found ? { mimetype: found.mime, ext: found.ext } : undefined
}

/** Width and height of an image, or undefined when the bytes are no image image-size knows. */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes)
    return width && height ? { width, height } : undefined
  } catch {
    return undefined
  }
}

/** file-type answers audio/ogg for Vorbis, 'audio/ogg; codecs=opus' for Opus, audio/mpeg for mp3. */
export function isAudio(sniffed: Sniffed | undefined): boolean {
  return sniffed !== undefined && (sniffed.mimetype.startsWith('audio/') || sniffed.mimetype === 'application/ogg')
}
