/**
 * The inbox's rules that need no browser: the shapes the API answers, where a message goes among
 * those shown, what an update may change, which chat an event is for, which route takes a file.
 */
import type { ChatSummary } from '../../../schemas/chat'
import type { MessageView } from '../../../schemas/message-record'

export type Chat = ChatSummary
/** A record as the API answers it; an event's data is merged into one (it lacks a few fields). */
export type Message = MessageView

/** Messages a conversation reads per page (GET /v1/message/all allows 100). */
export const PAGE_SIZE = 25

/**
 * The largest file the reply box sends. It travels base64 in a `data:` URL inside the JSON body,
 * which the gateway caps at BODY_LIMIT_BYTES (1 MiB by default; base64 is 4/3 of the file), so
 * more would only come back 413.
 */
export const MAX_SEND_BYTES = 700 * 1024

/** Forward order of outbound statuses: a late or out-of-order update never moves one back. */
const FORWARD = ['pending', 'sent', 'delivered', 'read', 'played']

export function mergeMessage(known: Message | undefined, update: Partial<Message>): Message {
  const merged = { ...known, ...update } as Message
  if (known && update.status) {
    const before = FORWARD.indexOf(known.status)
    const after = FORWARD.indexOf(update.status)
    if (before > after && after >= 0) merged.status = known.status
  }
  return merged
}

/** Whether a message (a record or an event's data) belongs to the chat. */
export function inChat(chat: { chat: string; lid?: string | null }, message: { phone?: unknown; lid?: unknown }) {
  const phone = typeof message.phone === 'string' ? message.phone : null
  if (phone === chat.chat) return true
  // A 1:1 record kept under the LID alone still belongs to the number's chat; a group's lid is its sender's.
  if (phone?.endsWith('@g.us')) return false
  return Boolean(message.lid) && (message.lid === chat.chat || message.lid === chat.lid)
}

/**
 * The send route and field that take a file of this type as a `data:` URL (docs/api.md "Media from
 * the body"): photos as images, videos as videos, the audio formats WhatsApp plays as audio, and
 * anything else (GIFs, other audio, PDFs…) as a document, which takes every type.
 */
export function sendRouteFor(type: string): {
  route: 'image' | 'video' | 'audio' | 'document'
  field: 'imageUrl' | 'videoUrl' | 'audioUrl' | 'documentUrl'
} {
  if (/^image\/(jpeg|png|webp)$/.test(type)) return { route: 'image', field: 'imageUrl' }
  if (type.startsWith('video/')) return { route: 'video', field: 'videoUrl' }
  if (/^audio\/(mpeg|mp3|ogg|opus)$/.test(type)) return { route: 'audio', field: 'audioUrl' }
  return { route: 'document', field: 'documentUrl' }
}

/** Before in the API's order of records (GET /v1/message/all pages by createdAt, then id). */
const before = (a: Message, b: Message) =>
  a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.messageId < b.messageId)

/**
 * A message read on its own (a send's answer, an event's record) among those shown, oldest first,
 * where the API's order puts it. One older than every message shown while older pages are still
 * unread is left to its page: the event stream can bring old messages late.
 */
export function place(list: Message[], message: Message, olderPagesUnread: boolean): Message[] {
  const oldest = list[0]
  if (olderPagesUnread && oldest && before(message, oldest)) return list
  let at = list.length
  while (at > 0 && before(message, list[at - 1] as Message)) at--
  return [...list.slice(0, at), message, ...list.slice(at)]
}
