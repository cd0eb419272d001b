/**
 * What sending media needs from the media layer, as services see it: bytes from a client
 * URL (guarded, size- and time-limited) and what to make of them. Every failure is a
 * GatewayError (413 payload_too_large, 422 media_unavailable), never a 500.
 */
export interface MediaTools {
  fetch(url: string): Promise<Uint8Array>
  /** The real type and size of an image; 422 when the bytes are not an image. */
  image(bytes: Uint8Array): Promise<{ mimetype: string; width?: number; height?: number }>
  /** The real type and length of an audio file (mp3, ogg, opus); 422 otherwise. */
  audio(bytes: Uint8Array): Promise<{ mimetype: string; seconds?: number }>
  /** OGG/Opus mono voice note, with its length and, where practical, a waveform. */
  voiceNote(bytes: Uint8Array): Promise<{ bytes: Uint8Array; mimetype: string; seconds: number; waveform?: Uint8Array }>
  /** A 512×512 WebP sticker from a .webp or .gif; animation kept. */
  sticker(
    bytes: Uint8Array,
  ): Promise<{ bytes: Uint8Array; mimetype: string; animated: boolean; width: number; height: number }>
}
