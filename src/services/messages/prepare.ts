import type { MessageContent, MessageType } from '../../engine/whatsapp/message-content'
import type { OutboundContent } from '../../engine/whatsapp/outbound-content'
import type {
  SendAudioInput,
  SendButtonsInput,
  SendImageInput,
  SendListInput,
  SendLocationInput,
  SendStickerInput,
  SendTextInput,
} from '../../schemas/message'
import type { MediaTools } from './media-tools'

/** A message ready for the engine, with what its record will say. */
export interface PreparedMessage {
  content: OutboundContent
  type: MessageType
  summary: MessageContent
}

/** One endpoint's input, tagged with the endpoint. */
export type SendInput =
  | ({ kind: 'text' } & SendTextInput)
  | ({ kind: 'image' } & SendImageInput)
  | ({ kind: 'audio' } & SendAudioInput)
  | ({ kind: 'sticker' } & SendStickerInput)
  | ({ kind: 'location' } & SendLocationInput)
  | ({ kind: 'list' } & SendListInput)
  | ({ kind: 'buttons' } & SendButtonsInput)

export const isInteractive = (input: SendInput) => input.kind === 'list' || input.kind === 'buttons'

/**
 * Turns a request into engine content: fetches and converts media (the only slow, failing
 * part, done before anything is recorded or sent).
 */
export async function prepareMessage(media: MediaTools, input: SendInput): Promise<PreparedMessage> {
  switch (input.kind) {
    case 'text':
      return { type: 'text', content: { kind: 'text', text: input.message }, summary: { text: input.message } }
    case 'image': {
      const data = await media.fetch(input.imageUrl)
      const image = await media.image(data)
      return {
        type: 'image',
        content: { kind: 'image', data, ...image, caption: input.caption },
        summary: { caption: input.caption, mimetype: image.mimetype, width: image.width, height: image.height },
      }
    }
    case 'audio': {
      const data = await media.fetch(input.audioUrl)
      if (input.ptt) {
        const voice = await media.voiceNote(data)
        return {
          type: 'ptt',
          content: {
            kind: 'voice',
            data: voice.bytes,
            mimetype: voice.mimetype,
            seconds: voice.seconds,
            waveform: voice.waveform,
          },
          summary: { mimetype: voice.mimetype, seconds: voice.seconds },
        }
      }
      const audio = await media.audio(data)
      return {
        type: 'audio',
        content: { kind: 'audio', data, ...audio },
        summary: { mimetype: audio.mimetype, seconds: audio.seconds },
      }
    }
    case 'sticker': {
      const sticker = await media.sticker(await media.fetch(input.stickerUrl))
      return {
        type: 'sticker',
        content: {
          kind: 'sticker',
          data: sticker.bytes,
          mimetype: sticker.mimetype,
          animated: sticker.animated,
          width: sticker.width,
          height: sticker.height,
        },
        summary: {
          mimetype: sticker.mimetype,
          animated: sticker.animated,
          width: sticker.width,
          height: sticker.height,
        },
      }
    }
    case 'location':
      return {
        type: 'location',
        content: { kind: 'location', latitude: input.latitude, longitude: input.longitude },
        summary: { latitude: input.latitude, longitude: input.longitude },
      }
    case 'list': {
      const { text, buttonText, title, footer, sections } = input
      return {
        type: 'list',
        content: { kind: 'list', text, buttonText, title, footer, sections },
        summary: { text, buttonText, title, footer, sections },
      }
    }
    case 'buttons': {
      const { message: text, footer, buttons } = input
      return {
        type: 'buttons',
        content: { kind: 'buttons', text, footer, buttons },
        summary: { text, footer, buttons },
      }
    }
  }
}
