// One seeded message as the phone puts it in a HistorySync chunk (WebMessageInfo), built on
// demand from its conversation and index: mostly text, every seventh a reply quoting the one
// before, the seeded image messages with their files on the media host; inbound ones carry the
// author's push name, outbound ones a delivery status.
import { proto } from '@whiskeysockets/baileys'
import {
  authorOf,
  historyMessageId,
  messageTime,
  type SeededConversation,
  type SeededHistory,
  type SeededParty,
} from './history-model'

const Status = proto.WebMessageInfo.Status

const WORDS = ['see you at noon', 'sounds good', 'the train is late', 'thanks!', 'what about friday?', 'on my way']

/** The text of a message (the caption of an image): deterministic, so a quote can repeat it. */
export const messageText = (conversation: SeededConversation, index: number): string =>
  `${WORDS[(conversation.index + index) % WORDS.length]} (#${index + 1})`

/** Outbound ones: most read, some delivered, the newest only at the server. */
const statusOf = (conversation: SeededConversation, index: number): proto.WebMessageInfo.Status =>
  index === conversation.messages - 1 ? Status.SERVER_ACK : index % 4 === 0 ? Status.DELIVERY_ACK : Status.READ

/** The jid a quote or a group message names its author by: the account by number, a contact by LID. */
const authorJid = (history: SeededHistory, author: SeededParty | 'me'): string =>
  author === 'me' ? `${history.phone}@s.whatsapp.net` : `${author.lid}@lid`

const contentOf = (
  history: SeededHistory,
  conversation: SeededConversation,
  index: number,
  id: string,
): proto.IMessage => {
  const image = history.media.get(id)
  if (image) return { imageMessage: { ...image, caption: messageText(conversation, index) } }
  const text = messageText(conversation, index)
  if (index % 7 !== 3) return { conversation: text }
  const quoted = index - 1
  return {
    extendedTextMessage: {
      text,
      contextInfo: {
        stanzaId: historyMessageId(history, conversation, quoted),
        participant: authorJid(history, authorOf(history, conversation, quoted)),
        quotedMessage: { conversation: messageText(conversation, quoted) },
      },
    },
  }
}

export const historyMessage = (
  history: SeededHistory,
  conversation: SeededConversation,
  index: number,
): proto.IWebMessageInfo => {
  const id = historyMessageId(history, conversation, index)
  const author = authorOf(history, conversation, index)
  const fromMe = author === 'me'
  const inGroup = conversation.kind === 'group'
  return {
    key: {
      remoteJid: conversation.jid,
      fromMe,
      id,
      ...(inGroup && !fromMe ? { participant: authorJid(history, author) } : {}),
    },
    message: contentOf(history, conversation, index, id),
    messageTimestamp: messageTime(history, conversation, index),
    ...(fromMe ? { status: statusOf(conversation, index) } : { pushName: author.pushName }),
  }
}
