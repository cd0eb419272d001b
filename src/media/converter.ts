import type { PreparedVideo } from './port'

/** What the gateway needs from a media converter; ffmpeg/ holds the real implementation. */
export interface MediaConverter {
  /** OGG/Opus mono, as WhatsApp voice notes are; from mp3, ogg/vorbis or ogg/opus. */
  toVoiceNote(bytes: Uint8Array): Promise<VoiceNote>
  /** A 512×512 WebP sticker (scaled to fit, transparent padding); animated input stays animated. */
  toSticker(bytes: Uint8Array): Promise<Sticker>
  /** Duration and real type of an audio file sent as it is (ptt: false). */
  probeAudio(bytes: Uint8Array): Promise<AudioInfo>
  /** An MP4 (H.264, AAC) with its length, size and a JPEG thumbnail; other videos and GIFs converted. */
  toVideo(bytes: Uint8Array, options: { gifPlayback: boolean }): Promise<PreparedVideo>
  /** A PROFILE_PICTURE_SIDE-square JPEG (the middle square of the picture) from a JPEG, PNG or WebP. */
  toProfilePicture(bytes: Uint8Array): Promise<Uint8Array>
  /** A JPEG of at most LINK_THUMBNAIL_SIDE a side (proportions kept) from a JPEG, PNG or WebP: a link preview's picture. */
  toLinkThumbnail(bytes: Uint8Array): Promise<Uint8Array>
}

export interface VoiceNote {
  bytes: Uint8Array
  mimetype: 'audio/ogg; codecs=opus'
  seconds: number
  /** 64 loudness values 0–100, the bars WhatsApp draws for a voice note. */
  waveform?: Uint8Array
}

export interface Sticker {
  bytes: Uint8Array
  mimetype: 'image/webp'
  animated: boolean
}

export interface AudioInfo {
  seconds: number
  mimetype: string
}

/** WhatsApp's profile photos: square JPEGs of at most 640 px a side (WhatsApp's own apps crop to at least 192). */
export const PROFILE_PICTURE_SIDE = 640
export const PROFILE_PICTURE_MIN_SIDE = 192
/** The largest picture one is made from (as for stickers): a header claiming more is refused before decoding. */
export const PROFILE_PICTURE_MAX_INPUT_SIDE = 4_096

/** A link preview's inline thumbnail: WhatsApp's apps make theirs about this size (Baileys: 192). */
export const LINK_THUMBNAIL_SIDE = 192

/** WhatsApp's sticker limits: bigger stickers are refused or shown as files. */
export const STICKER_SIZE = 512
export const STATIC_STICKER_MAX_BYTES = 100 * 1024
export const ANIMATED_STICKER_MAX_BYTES = 500 * 1024
