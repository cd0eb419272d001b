import { type AnyMessageContent, type BinaryNode, proto } from '@whiskeysockets/baileys'
import { buttonsMessage, INTERACTIVE_STANZA_NODES, listMessage } from './interactive'
import type { LinkPreviewContent, OutboundContent } from '../port/messages'

/**
 * How one OutboundContent goes out: either Baileys content (Baileys builds the proto and
 * uploads media) or a ready proto message; plus what to change on the built proto and the
 * extra stanza nodes WhatsApp expects for it.
 */
export type SendPlan =
  | {
      via: 'content'
      content: AnyMessageContent
      patch?: (message: proto.IMessage) => void
      additionalNodes?: BinaryNode[]
    }
  | { via: 'proto'; message: proto.IMessage; additionalNodes?: BinaryNode[] }

const POLL_CREATION_NODE: BinaryNode = { tag: 'meta', attrs: { polltype: 'creation' } }

const buffer = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength)

/** Pure: OutboundContent → the send plan. Unit-tested without a socket. */
export function toSendPlan(content: OutboundContent): SendPlan {
  switch (content.kind) {
    case 'text':
      // linkPreview given (null without one): Baileys' own getUrlInfo fetches outside the address guard.
      return { via: 'content', content: { text: content.text, linkPreview: linkPreview(content.preview) } }
    case 'image':
      return {
        via: 'content',
        content: {
          image: buffer(content.data),
          mimetype: content.mimetype,
          ...(content.caption ? { caption: content.caption } : {}),
          ...(content.width && content.height ? { width: content.width, height: content.height } : {}),
        },
      }
    case 'audio':
      return {
        via: 'content',
        content: {
          audio: buffer(content.data),
          mimetype: content.mimetype,
          ptt: false,
          ...(content.seconds ? { seconds: content.seconds } : {}),
        },
      }
    case 'voice': {
      const waveform = content.waveform
      return {
        via: 'content',
        content: { audio: buffer(content.data), mimetype: content.mimetype, ptt: true, seconds: content.seconds },
        // Baileys' content type has no waveform; the proto field is what phones draw.
        patch: waveform
          ? (message) => {
              if (message.audioMessage) message.audioMessage.waveform = waveform
            }
          : undefined,
      }
    }
    case 'sticker':
      return {
        via: 'content',
        content: {
          sticker: buffer(content.data),
          mimetype: content.mimetype,
          isAnimated: content.animated,
          width: content.width,
          height: content.height,
        },
      }
    case 'video':
      return {
        via: 'content',
        content: {
          video: buffer(content.data),
          mimetype: content.mimetype,
          gifPlayback: content.gifPlayback,
          jpegThumbnail: Buffer.from(content.thumbnail).toString('base64'),
          width: content.width,
          height: content.height,
          ...(content.caption ? { caption: content.caption } : {}),
        },
        // Baileys' content type has no seconds for video; the proto field is what phones show.
        patch: (message) => {
          if (message.videoMessage) message.videoMessage.seconds = content.seconds
        },
      }
    case 'document':
      return {
        via: 'content',
        content: {
          document: buffer(content.data),
          mimetype: content.mimetype,
          fileName: content.fileName,
          ...(content.caption ? { caption: content.caption } : {}),
        },
      }
    case 'contacts':
      return { via: 'content', content: { contacts: { displayName: content.displayName, contacts: content.cards } } }
    case 'location':
      return {
        via: 'content',
        content: { location: { degreesLatitude: content.latitude, degreesLongitude: content.longitude } },
      }
    case 'list':
      return { via: 'proto', message: listMessage(content), additionalNodes: INTERACTIVE_STANZA_NODES }
    case 'buttons':
      return { via: 'proto', message: buttonsMessage(content), additionalNodes: INTERACTIVE_STANZA_NODES }
    case 'poll':
      return {
        via: 'content',
        content: {
          poll: { name: content.question, values: content.options, selectableCount: content.selectableCount },
        },
        // What Baileys' own sendMessage adds to a poll's stanza; relayMessage does not.
        additionalNodes: [POLL_CREATION_NODE],
      }
    case 'forward': {
      const { id, chatJid, fromMe, payload } = content.original
      return {
        via: 'content',
        // force: marked as forwarded even when the account wrote it, as the API promises.
        content: {
          forward: { key: { remoteJid: chatJid, id, fromMe }, message: proto.Message.decode(payload) },
          force: true,
        },
      }
    }
    case 'reaction': {
      const { id, chatJid, fromMe, participant } = content.target
      return {
        via: 'content',
        content: {
          react: {
            key: { remoteJid: chatJid, id, fromMe, ...(participant ? { participant } : {}) },
            text: content.emoji,
          },
        },
      }
    }
  }
}

/** Baileys' urlInfo shape for a preview we made; null stops Baileys looking for one itself. */
function linkPreview(preview: LinkPreviewContent | undefined) {
  if (!preview) return null
  return {
    'canonical-url': preview.canonicalUrl,
    'matched-text': preview.matchedText,
    title: preview.title,
    ...(preview.description ? { description: preview.description } : {}),
    ...(preview.jpegThumbnail ? { jpegThumbnail: buffer(preview.jpegThumbnail) } : {}),
  }
}
