/**
 * Whether an image file is whole: its structure walked from the first byte to the last, without
 * decoding a pixel (a Worker has no decoder, and decoding is what a hostile header would make
 * expensive). A JPEG signature followed by junk, a WebP whose chunks overrun the file, or the
 * first 10 bytes of a real photo (a server that lied about Content-Length) all fail here.
 */
export type ImageCheck = { ok: true; width: number; height: number } | { ok: false; reason: string }

/** Larger than any photo WhatsApp shows; a header claiming more is lying or hostile. */
export const MAX_IMAGE_SIDE = 16_384

export function checkImage(bytes: Uint8Array, mimetype: string): ImageCheck {
  const result =
    mimetype === 'image/jpeg'
      ? checkJpeg(bytes)
      : mimetype === 'image/png'
        ? checkPng(bytes)
        : mimetype === 'image/webp'
          ? checkWebp(bytes)
          : fail(`${mimetype} is not checked`)
  if (!result.ok) return result
  if (result.width < 1 || result.height < 1) return fail('it declares no size')
  if (result.width > MAX_IMAGE_SIDE || result.height > MAX_IMAGE_SIDE) {
    return fail(`it declares ${result.width}×${result.height}, over ${MAX_IMAGE_SIDE} per side`)
  }
  return result
}

const fail = (reason: string): ImageCheck => ({ ok: false, reason })

/** Start-of-frame markers carry the size: SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

/**
 * JPEG: SOI, then marker segments whose lengths must stay inside the file, a start of frame
 * with the size, a start of scan, entropy-coded data, and EOI as the last marker (trailing
 * padding after it is tolerated, as viewers do).
 */
function checkJpeg(bytes: Uint8Array): ImageCheck {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return fail('it does not start as a JPEG')
  let size: { width: number; height: number } | undefined
  let at = 2
  for (;;) {
    if (at + 4 > bytes.length) return fail('it ends inside its headers')
    if (bytes[at] !== 0xff) return fail(`its header is broken at byte ${at}`)
    const marker = bytes[at + 1]!
    if (marker === 0xff) {
      at++ // fill byte
      continue
    }
    if (marker === 0xd9) return fail('it ends before any picture data')
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2 // markers without a length
      continue
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!
    if (length < 2 || at + 2 + length > bytes.length)
      return fail(`a header segment runs past the end of the file at byte ${at}`)
    if (isStartOfFrame(marker)) {
      if (length < 7) return fail('its frame header is too short')
      size = { height: (bytes[at + 5]! << 8) | bytes[at + 6]!, width: (bytes[at + 7]! << 8) | bytes[at + 8]! }
    }
    at += 2 + length
    if (marker === 0xda) break // start of scan: entropy-coded data follows
  }
  if (!size) return fail('it has no frame header (no size)')
  let end = bytes.length
  while (end > at && bytes[end - 1] === 0x00) end-- // zero padding after EOI
  if (end - at < 2 || bytes[end - 2] !== 0xff || bytes[end - 1] !== 0xd9)
    return fail('it is cut short (no end-of-image marker)')
  return { ok: true, ...size }
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** PNG: the signature, IHDR first, chunks whose lengths stay inside the file, at least one IDAT, and IEND last. */
function checkPng(bytes: Uint8Array): ImageCheck {
  if (bytes.length < 8 || PNG_SIGNATURE.some((byte, i) => bytes[i] !== byte)) return fail('it does not start as a PNG')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let size: { width: number; height: number } | undefined
  let pictureData = false
  for (let at = 8; ; ) {
    if (at + 12 > bytes.length) return fail('it is cut short (no IEND chunk)')
    const length = view.getUint32(at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    if (!/^[A-Za-z]{4}$/.test(type)) return fail(`its chunk at byte ${at} is not a PNG chunk`)
    if (at + 12 + length > bytes.length) return fail(`its ${type} chunk runs past the end of the file`)
    if (at === 8) {
      if (type !== 'IHDR' || length !== 13) return fail('it does not begin with an IHDR chunk')
      size = { width: view.getUint32(at + 8), height: view.getUint32(at + 12) }
    }
    if (type === 'IDAT') pictureData = true
    at += 12 + length
    if (type === 'IEND') break
  }
  if (!pictureData) return fail('it has no picture data (IDAT)')
  return { ok: true, ...size! }
}

/**
 * WebP: a RIFF container whose declared size is the file's (odd sizes padded), chunks that stay
 * inside it, and an image chunk (VP8, VP8L, or VP8X with frames) whose header gives the size.
 */
function checkWebp(bytes: Uint8Array): ImageCheck {
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
  if (bytes.length < 20 || text(0) !== 'RIFF' || text(8) !== 'WEBP') return fail('it does not start as a WebP')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const riffEnd = 8 + view.getUint32(4, true)
  if (riffEnd !== bytes.length && riffEnd + 1 !== bytes.length) {
    return fail(`its RIFF header says ${riffEnd} bytes, the file has ${bytes.length}`)
  }
  let size: { width: number; height: number } | undefined
  let picture = false
  for (let at = 12; at < riffEnd; ) {
    if (at + 8 > riffEnd) return fail(`a chunk header runs past the end of the file at byte ${at}`)
    const kind = text(at)
    const length = view.getUint32(at + 4, true)
    const body = at + 8
    if (body + length > riffEnd) return fail(`its ${kind.trim()} chunk runs past the end of the file`)
    if (kind === 'VP8X' && length >= 10) {
      size = { width: 1 + uint24(bytes, body + 4), height: 1 + uint24(bytes, body + 7) }
    } else if (kind === 'VP8 ' && length >= 10) {
      if (bytes[body + 3] !== 0x9d || bytes[body + 4] !== 0x01 || bytes[body + 5] !== 0x2a)
        return fail('its VP8 frame has no start code')
      size ??= { width: view.getUint16(body + 6, true) & 0x3fff, height: view.getUint16(body + 8, true) & 0x3fff }
      picture = true
    } else if (kind === 'VP8L' && length >= 5) {
      if (bytes[body] !== 0x2f) return fail('its VP8L stream has no signature')
      const bits = view.getUint32(body + 1, true)
      size ??= { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
      picture = true
    } else if (kind === 'ANMF') {
      picture = true
    }
    at = body + length + (length % 2)
  }
  if (!size || !picture) return fail('it has no image data')
  return { ok: true, ...size }
}

function uint24(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
}
