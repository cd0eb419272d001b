/** How the inbox writes things: a message as a line, types and statuses in words, sizes and times. */
import { language, translator } from '../../i18n'
import type { Message } from './rules'
import { texts } from './texts'

const t = translator(texts)

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
