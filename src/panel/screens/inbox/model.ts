/** What the inbox's parts share: the shapes the API answers, and small pure rules about them. */
import type { ChatSummary } from '../../../schemas/chat'
import type { MessageView } from '../../../schemas/message-record'
import { language, translator } from '../../i18n'
import { texts } from './texts'

const t = translator(texts)

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

const TYPE_LABELS = {
  text: 'typeText',
  image: 'typeImage',
  video: 'typeVideo',
  audio: 'typeAudio',
  ptt: 'typePtt',
  document: 'typeDocument',
  sticker: 'typeSticker',
  location: 'typeLocation',
  contact: 'typeContact',
  poll: 'typePoll',
  list: 'typeList',
  buttons: 'typeButtons',
  list_reply: 'typeListReply',
  buttons_reply: 'typeButtonsReply',
  unknown: 'typeUnknown',
} as const

export const typeLabel = (type: string) => t(TYPE_LABELS[type as keyof typeof TYPE_LABELS] ?? 'typeUnknown')

/** A message as one line of text: what it says, else what it is. */
export function summary(message: Pick<Message, 'type' | 'content' | 'status'>): string {
  if (message.status === 'deleted') return t('deleted')
  const c = message.content ?? {}
  if (c.text) return c.text
  if (c.caption) return c.caption
  if (message.type === 'poll' && c.question) return t('poll', { question: c.question })
  if (message.type === 'location' && c.latitude !== undefined)
    return t('location', { latitude: c.latitude, longitude: c.longitude ?? '' })
  if (message.type === 'contact' && c.contacts?.length)
    return t('contacts', { names: c.contacts.map((card) => card.name).join(', ') })
  if (message.type === 'document') {
    const name = c.media?.fileName ?? c.fileName
    if (name) return t('documentNamed', { name })
  }
  if (c.title) return c.title
  return typeLabel(message.type)
}

const STATUS_LABELS = {
  pending: 'statusPending',
  sent: 'statusSent',
  delivered: 'statusDelivered',
  read: 'statusRead',
  played: 'statusPlayed',
  failed: 'statusFailed',
  deleted: 'statusDeleted',
  received: 'statusReceived',
} as const

export const statusLabel = (status: string) =>
  STATUS_LABELS[status as keyof typeof STATUS_LABELS] ? t(STATUS_LABELS[status as keyof typeof STATUS_LABELS]) : status

export function formatBytes(bytes: number): string {
  const format = (n: number) => n.toLocaleString(language.get(), { maximumFractionDigits: 1 })
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${format(bytes / 1024)} KB`
  return `${format(bytes / (1024 * 1024))} MB`
}

/** Today's times as hours and minutes; older ones with their date. */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return ''
  const date = new Date(iso)
  const today = new Date().toDateString() === date.toDateString()
  return today
    ? date.toLocaleTimeString(language.get(), { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString(language.get(), { dateStyle: 'short', timeStyle: 'short' })
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
