// What the server checks of a profile photo before it keeps it: a whole baseline/progressive JPEG
// (SOI, marker segments inside the file, a frame header, scan data, EOI) and the size it declares.

export type JpegCheck = { ok: true; width: number; height: number } | { ok: false; reason: string }

const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

export const readJpeg = (bytes: Uint8Array): JpegCheck => {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return { ok: false, reason: 'not a JPEG' }
  let size: { width: number; height: number } | undefined
  let at = 2
  for (;;) {
    if (at + 4 > bytes.length || bytes[at] !== 0xff) return { ok: false, reason: `broken header at byte ${at}` }
    const marker = bytes[at + 1]!
    if (marker === 0xff) {
      at++
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    if (marker === 0xd9) return { ok: false, reason: 'no picture data' }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!
    if (length < 2 || at + 2 + length > bytes.length) return { ok: false, reason: `segment past the end at ${at}` }
    if (isStartOfFrame(marker) && length >= 7)
      size = { height: (bytes[at + 5]! << 8) | bytes[at + 6]!, width: (bytes[at + 7]! << 8) | bytes[at + 8]! }
    at += 2 + length
    if (marker === 0xda) break
  }
  if (!size) return { ok: false, reason: 'no frame header' }
  if (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) return { ok: false, reason: 'cut short' }
  return { ok: true, ...size }
}
