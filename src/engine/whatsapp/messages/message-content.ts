import { getContentType, type proto } from '@whiskeysockets/baileys'
import { mediaAttachment, mediaSummary } from '../media/media-attachment'
import { parseVcard, type CardContact } from './vcard'

import type { MessageContent } from '../../../shared/message-content'
import type { MessageType } from '../../../shared/message-types'
import { describePoll, pollCreationOf } from './poll-content'

export interface DescribedMessage {
  type: MessageType
  content: MessageContent
  quoteId?: string
}

const seconds = (value: unknown) => (value == null ? undefined : Number(value))
/** At most this many people of one shared contacts array are recorded. */
const MAX_CARDS = 50
const cards = (list: proto.Message.IContactMessage[]): CardContact[] =>
  list.slice(0, MAX_CARDS).map((card) => parseVcard(card.vcard ?? '', card.displayName ?? ''))
const defined = (content: MessageContent): MessageContent =>
  Object.fromEntries(
    Object.entries(content).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as MessageContent

/** The id a reply or reaction refers to, wherever Baileys put its context. */
function quoteIdOf(message: proto.IMessage, contentType: keyof proto.IMessage): string | undefined {
  const inner = message[contentType] as { contextInfo?: proto.IContextInfo | null } | undefined
  return inner?.contextInfo?.stanzaId ?? undefined
}

/** Pure: a normalised proto message → record type, content summary (with its file's, if any) and quoted id. */
export function describeMessage(message: proto.IMessage): DescribedMessage {
  const described = describeContent(message)
  const attachment = mediaAttachment(message)
  if (attachment) described.content.media = mediaSummary(attachment)
  return described
}

function describeContent(message: proto.IMessage): DescribedMessage {
  const contentType = getContentType(message)
  const quoteId = contentType ? quoteIdOf(message, contentType) : undefined
  const withQuote = (type: MessageType, content: MessageContent): DescribedMessage => ({
    type,
    content: defined(content),
    ...(quoteId ? { quoteId } : {}),
  })
  const m = message
  if (m.conversation != null) return withQuote('text', { text: m.conversation })
  if (m.extendedTextMessage) return withQuote('text', { text: m.extendedTextMessage.text ?? '' })
  if (m.imageMessage) {
    const i = m.imageMessage
    return withQuote('image', {
      caption: i.caption ?? undefined,
      mimetype: i.mimetype ?? undefined,
      width: i.width ?? undefined,
      height: i.height ?? undefined,
    })
  }
  if (m.audioMessage) {
    const a = m.audioMessage
    return withQuote(a.ptt ? 'ptt' : 'audio', { mimetype: a.mimetype ?? undefined, seconds: seconds(a.seconds) })
  }
  if (m.stickerMessage) {
    const s = m.stickerMessage
    return withQuote('sticker', {
      mimetype: s.mimetype ?? undefined,
      animated: Boolean(s.isAnimated),
      width: s.width ?? undefined,
      height: s.height ?? undefined,
    })
  }
  if (m.locationMessage) {
    const l = m.locationMessage
    return withQuote('location', {
      latitude: l.degreesLatitude ?? undefined,
      longitude: l.degreesLongitude ?? undefined,
      name: l.name ?? undefined,
    })
  }
  if (m.liveLocationMessage) {
    const l = m.liveLocationMessage
    return withQuote('location', {
      latitude: l.degreesLatitude ?? undefined,
      longitude: l.degreesLongitude ?? undefined,
    })
  }
  if (m.videoMessage) {
    const v = m.videoMessage
    return withQuote('video', {
      caption: v.caption ?? undefined,
      mimetype: v.mimetype ?? undefined,
      seconds: seconds(v.seconds),
      width: v.width ?? undefined,
      height: v.height ?? undefined,
      gifPlayback: v.gifPlayback ? true : undefined,
    })
  }
  if (m.ptvMessage) {
    const v = m.ptvMessage
    return withQuote('video', { mimetype: v.mimetype ?? undefined, seconds: seconds(v.seconds) })
  }
  if (m.documentMessage) {
    const d = m.documentMessage
    return withQuote('document', {
      caption: d.caption ?? undefined,
      mimetype: d.mimetype ?? undefined,
      fileName: d.fileName ?? undefined,
    })
  }
  if (m.contactMessage) {
    const c = m.contactMessage
    return withQuote('contact', { name: c.displayName ?? undefined, contacts: cards([c]) })
  }
  if (m.contactsArrayMessage) {
    const a = m.contactsArrayMessage
    return withQuote('contact', { name: a.displayName ?? undefined, contacts: cards(a.contacts ?? []) })
  }
  if (m.listResponseMessage) {
    const r = m.listResponseMessage
    return withQuote('list_reply', {
      text: r.title ?? undefined,
      selectedId: r.singleSelectReply?.selectedRowId ?? undefined,
    })
  }
  if (m.buttonsResponseMessage) {
    const r = m.buttonsResponseMessage
    return withQuote('buttons_reply', {
      text: r.selectedDisplayText ?? undefined,
      selectedId: r.selectedButtonId ?? undefined,
    })
  }
  if (m.interactiveResponseMessage) return withQuote('buttons_reply', nativeFlowReply(m.interactiveResponseMessage))
  const poll = pollCreationOf(m)
  if (poll) return withQuote('poll', describePoll(poll))
  if (m.interactiveMessage) return withQuote('buttons', { text: m.interactiveMessage.body?.text ?? undefined })
  return withQuote('unknown', { kind: contentType })
}

/** A tap on a native-flow list row or reply button: its id is inside a JSON string. */
function nativeFlowReply(reply: proto.Message.IInteractiveResponseMessage): MessageContent {
  let selectedId: string | undefined
  try {
    const params = JSON.parse(reply.nativeFlowResponseMessage?.paramsJson ?? '{}') as { id?: unknown }
    if (typeof params.id === 'string') selectedId = params.id
  } catch {
    // a reply whose params are not JSON still has its text
  }
  return { text: reply.body?.text ?? undefined, selectedId }
}
