/**
 * What a WebP file says about itself in its RIFF chunks: canvas size, animation and the
 * frame count. Read directly because this ffmpeg (4.x) cannot decode animated WebP.
 */
export interface WebpInfo {
  width: number
  height: number
  animated: boolean
  frames: number
}

export function readWebpInfo(bytes: Uint8Array): WebpInfo | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
  if (bytes.length < 30 || text(0) !== 'RIFF' || text(8) !== 'WEBP') return undefined
  let info: WebpInfo | undefined
  let frames = 0
  for (let at = 12; at + 8 <= bytes.length; ) {
    const kind = text(at)
    const size = view.getUint32(at + 4, true)
    const body = at + 8
    if (kind === 'VP8X' && body + 10 <= bytes.length) {
      const animated = (bytes[body]! & 0x02) !== 0
      info = { width: 1 + uint24(bytes, body + 4), height: 1 + uint24(bytes, body + 7), animated, frames: 0 }
    } else if (kind === 'ANMF') {
      frames++
    } else if (kind === 'VP8 ' && !info && body + 10 <= bytes.length) {
      info = {
        width: view.getUint16(body + 6, true) & 0x3fff,
        height: view.getUint16(body + 8, true) & 0x3fff,
        animated: false,
        frames: 1,
      }
    } else if (kind === 'VP8L' && !info && body + 5 <= bytes.length) {
      const bits = view.getUint32(body + 1, true)
      info = { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1, animated: false, frames: 1 }
    }
    at = body + size + (size % 2) // chunks are padded to an even size
  }
  if (!info) return undefined
  return info.animated ? { ...info, frames } : { ...info, frames: 1 }
}

function uint24(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
}
