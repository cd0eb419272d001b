import type { MessageContent } from '../../../shared/message-content'
import type { MessageType } from '../../../shared/message-types'
import type { OutboundContent } from '../../../engine/whatsapp/port/messages'
import type {
  SendAudioInput,
  SendButtonsInput,
  SendContactInput,
  SendDocumentInput,
  SendImageInput,
  SendListInput,
  SendLocationInput,
  SendStickerInput,
  SendTextInput,
  SendVideoInput,
} from '../../../schemas/message'
import type { SendPollInput } from '../../../schemas/poll'
import type { ForwardMessageInput } from '../../../schemas/forward'
import type { StatusOptions } from '../../../schemas/status'
import { DEFAULT_DOCUMENT_NAME, fileNameFromUrl } from '../../../schemas/file-name'
import { isDataUrl } from '../../../shared/data-url'
import type { MediaTools } from '../../../media/port'
import { emptyTally } from '../inbound/poll-tally'
import { buildVcard } from './vcard'

/** A message ready for the engine, with what its record will say. */
export interface PreparedMessage {
  content: OutboundContent
  type: MessageType
  summary: MessageContent
}

/** One endpoint's input, tagged with the endpoint; a status (to `status@broadcast`) says who sees it. */
export type SendInput = { status?: StatusOptions } & (
  | ({ kind: 'text' } & SendTextInput)
  | ({ kind: 'image' } & SendImageInput)
  | ({ kind: 'audio' } & SendAudioInput)
  | ({ kind: 'sticker' } & SendStickerInput)
  | ({ kind: 'video' } & SendVideoInput)
  | ({ kind: 'document' } & SendDocumentInput)
  | ({ kind: 'contact' } & SendContactInput)
  | ({ kind: 'location' } & SendLocationInput)
  | ({ kind: 'list' } & SendListInput)
  | ({ kind: 'buttons' } & SendButtonsInput)
  | ({ kind: 'poll' } & SendPollInput)
  | ({ kind: 'forward' } & ForwardMessageInput)
)

export const isInteractive = (input: SendInput) => input.kind === 'list' || input.kind === 'buttons'

/**
 * Turns a request into engine content: fetches and converts media (the only slow, failing
 * part, done before anything is recorded or sent).
 */
export async function prepareMessage(
  media: MediaTools,
  input: Exclude<SendInput, { kind: 'forward' }>,
): Promise<PreparedMessage> {
  switch (input.kind) {
    case 'text':
      return { type: 'text', content: { kind: 'text', text: input.message }, summary: { text: input.message } }
    case 'image': {
      const data = await media.load(input.imageUrl, 'imageUrl')
      const image = await media.image(data)
      return {
        type: 'image',
        content: { kind: 'image', data, ...image, caption: input.caption },
        summary: { caption: input.caption, mimetype: image.mimetype, width: image.width, height: image.height },
      }
    }
    case 'audio': {
      const data = await media.load(input.audioUrl, 'audioUrl')
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
      const sticker = await media.sticker(await media.load(input.stickerUrl, 'stickerUrl'))
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
    case 'video': {
      const video = await media.video(await media.load(input.videoUrl, 'videoUrl'), { gifPlayback: input.gifPlayback })
      const { bytes: data, thumbnail, mimetype, seconds, width, height } = video
      return {
        type: 'video',
        content: {
          kind: 'video',
          data,
          thumbnail,
          mimetype,
          seconds,
          width,
          height,
          caption: input.caption,
          gifPlayback: input.gifPlayback,
        },
        summary: {
          caption: input.caption,
          mimetype,
          seconds,
          width,
          height,
          ...(input.gifPlayback ? { gifPlayback: true } : {}),
        },
      }
    }
    case 'document': {
      const data = await media.load(input.documentUrl, 'documentUrl')
      const { mimetype } = await media.documentType(data)
      const fileName = input.fileName ?? documentName(input.documentUrl)
      return {
        type: 'document',
        content: { kind: 'document', data, mimetype, fileName, caption: input.caption },
        summary: { caption: input.caption, mimetype, fileName },
      }
    }
    case 'contact': {
      const cards = input.contacts.map((card) => ({ displayName: card.name, vcard: buildVcard(card) }))
      const displayName = cards.length === 1 ? cards[0]!.displayName : `${cards.length} contacts`
      const summary = input.contacts.map(({ name, phones, organization, email }) => ({
        name,
        phones: phones.map((phone) => phone.digits),
        ...(organization ? { organization } : {}),
        ...(email ? { email } : {}),
      }))
      return {
        type: 'contact',
        content: { kind: 'contacts', displayName, cards },
        summary: { name: displayName, contacts: summary },
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
    case 'poll': {
      const { question, options, selectableCount } = input
      return {
        type: 'poll',
        content: { kind: 'poll', question, options, selectableCount },
        summary: { question, options, selectableCount, votes: emptyTally(options) },
      }
    }
  }
}

/** A document sent without `fileName`: the URL's last segment made safe, else a plain default. */
function documentName(source: string): string {
  return (isDataUrl(source) ? undefined : fileNameFromUrl(source)) ?? DEFAULT_DOCUMENT_NAME
}
