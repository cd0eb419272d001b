// WhatsApp's WebSocket framing: a 4-byte intro header once, then 3-byte big-endian length prefixes.
import { NOISE_WA_HEADER } from '@whiskeysockets/baileys'

export class FrameReader {
  private buffer = Buffer.alloc(0)
  private sawIntro = false

  /** Feeds raw websocket bytes; returns every complete frame payload. Throws on a bad intro. */
  push(data: Buffer): Buffer[] {
    this.buffer = Buffer.concat([this.buffer, data])
    if (!this.sawIntro) {
      if (this.buffer.length < 4) return []
      const intro = this.buffer.subarray(0, 4)
      if (!intro.equals(Buffer.from(NOISE_WA_HEADER))) {
        throw new Error(`unexpected intro header ${intro.toString('hex')} (routing headers are not supported)`)
      }
      this.buffer = this.buffer.subarray(4)
      this.sawIntro = true
    }
    const frames: Buffer[] = []
    while (this.buffer.length >= 3) {
      const size = (this.buffer[0]! << 16) | (this.buffer[1]! << 8) | this.buffer[2]!
      if (this.buffer.length < size + 3) break
      frames.push(this.buffer.subarray(3, size + 3))
      this.buffer = this.buffer.subarray(size + 3)
    }
    return frames
  }
}

export const encodeFrame = (payload: Uint8Array): Buffer => {
  const frame = Buffer.alloc(3 + payload.length)
  frame.writeUIntBE(payload.length, 0, 3)
  frame.set(payload, 3)
  return frame
}
