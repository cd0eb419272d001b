import {
  generateWAMessage,
  generateWAMessageFromContent,
  proto,
  type WAMessage,
  type WASocket,
} from '@whiskeysockets/baileys'
import type { Logger } from '../../../logger'
import { toSendPlan } from './outbound-content'
import type { OutboundContent } from '../port/messages'
import type { OwnMessageRef, QuotedMessage, SendOptions, SentMessage } from '../port'

/** The quoted message as Baileys wants it: a WAMessage with the content to show in the quote. */
function quotedMessage(quoted: QuotedMessage): WAMessage {
  return {
    key: {
      remoteJid: quoted.chatJid,
      id: quoted.id,
      fromMe: quoted.fromMe,
      ...(quoted.participant ? { participant: quoted.participant } : {}),
    },
    message: quoted.payload ? proto.Message.decode(quoted.payload) : { conversation: '' },
  }
}

/**
 * Builds, uploads (media), encrypts and relays one message. Baileys' own sendMessage does the
 * same in one call but cannot patch the proto (voice-note waveform) or add stanza nodes
 * (interactive messages), so the two steps are taken here.
 */
export async function sendContent(
  socket: WASocket,
  logger: Logger,
  to: string,
  content: OutboundContent,
  options: SendOptions & { messageId: string },
): Promise<SentMessage> {
  const plan = toSendPlan(content)
  const userJid = socket.user!.id
  const quoted = options.quoted ? quotedMessage(options.quoted) : undefined
  const built =
    plan.via === 'content'
      ? await generateWAMessage(to, plan.content, {
          userJid,
          upload: socket.waUploadToServer,
          logger: logger as never,
          messageId: options.messageId,
          quoted,
          ...(options.status ? { backgroundColor: options.status.backgroundColor, font: options.status.font } : {}),
        })
      : generateWAMessageFromContent(to, plan.message, { userJid, messageId: options.messageId, quoted })
  if (plan.via === 'content') plan.patch?.(built.message!)
  await socket.relayMessage(to, built.message!, {
    messageId: options.messageId,
    additionalNodes: plan.additionalNodes,
    ...(options.status ? { statusJidList: options.status.audience } : {}),
  })
  return {
    id: options.messageId,
    chatJid: to,
    payload: proto.Message.encode(built.message!).finish(),
    timestamp: new Date(Number(built.messageTimestamp) * 1000 || Date.now()),
  }
}

export async function editText(socket: WASocket, message: OwnMessageRef, text: string): Promise<void> {
  await socket.sendMessage(message.chatJid, {
    text,
    edit: { remoteJid: message.chatJid, id: message.id, fromMe: true },
  })
}

export async function revokeMessage(socket: WASocket, message: OwnMessageRef): Promise<void> {
  await socket.sendMessage(
    message.chatJid,
    { delete: { remoteJid: message.chatJid, id: message.id, fromMe: true } },
    message.statusAudience ? { statusJidList: message.statusAudience } : {},
  )
}
