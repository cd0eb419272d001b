/** The fields a send names its media source in: an http(s) URL or a base64 `data:` URL. */
export type MediaField = 'imageUrl' | 'audioUrl' | 'stickerUrl' | 'videoUrl' | 'documentUrl' | 'pictureUrl'

/** A video as WhatsApp plays it: MP4 (H.264, AAC or silent), with what its message shows. */
export interface PreparedVideo {
  bytes: Uint8Array
  mimetype: 'video/mp4'
  seconds: number
  width: number
  height: number
  /** A small JPEG of the first frame, shown before the video is downloaded. */
  thumbnail: Uint8Array
  /** Whether the file had to be converted (else it is sent byte for byte as it came). */
  converted: boolean
}

/**
 * What sending media needs from the media layer (its contract, implemented by media-tools.ts):
 * bytes from a client's source (guarded, size- and time-limited) and what to make of them.
 * Every failure is a GatewayError (413 payload_too_large, 422 media_unavailable), never a 500.
 */
export interface MediaTools {
  /** The bytes of `source`: fetched from an http(s) URL, or decoded from a `data:` URL. */
  load(source: string, field: MediaField): Promise<Uint8Array>
  /** The real type and size of an image; 422 when the bytes are not an image. */
  image(bytes: Uint8Array): Promise<{ mimetype: string; width?: number; height?: number }>
  /**
   * A profile photo WhatsApp keeps: a square JPEG of 192–640 px a side as it is, any other whole
   * JPEG, PNG or WebP (at most 4096 px a side) made a 640×640 JPEG of its middle square; 422 otherwise.
   */
  profilePicture(bytes: Uint8Array): Promise<{ bytes: Uint8Array; side: number; converted: boolean }>
  /**
   * A link preview's picture: a JPEG of at most 192 px a side from a whole JPEG, PNG or WebP
   * (at most 4096 px a side); a small enough JPEG as it is. 422 otherwise.
   */
  linkThumbnail(bytes: Uint8Array): Promise<Uint8Array>
  /** The real type and length of an audio file (mp3, ogg, opus); 422 otherwise. */
  audio(bytes: Uint8Array): Promise<{ mimetype: string; seconds?: number }>
  /** OGG/Opus mono voice note, with its length and, where practical, a waveform. */
  voiceNote(bytes: Uint8Array): Promise<{ bytes: Uint8Array; mimetype: string; seconds: number; waveform?: Uint8Array }>
  /** A 512×512 WebP sticker from a .webp or .gif; animation kept. */
  sticker(
    bytes: Uint8Array,
  ): Promise<{ bytes: Uint8Array; mimetype: string; animated: boolean; width: number; height: number }>
  /** An MP4 WhatsApp plays, with its length, size and thumbnail; other videos converted; 422 otherwise. */
  video(bytes: Uint8Array, options: { gifPlayback: boolean }): Promise<PreparedVideo>
  /** The type a file really is, from its bytes; `application/octet-stream` when no known format matches. */
  documentType(bytes: Uint8Array): Promise<{ mimetype: string; ext?: string }>
}
