import type { WASocket } from '@whiskeysockets/baileys'
import { EngineError, type PresenceUpdate, type ReceivedMessageRef } from '../port'

/**
 * Read receipts through Baileys' readMessages: it groups the keys per chat and author (one
 * `<receipt>` each, further ids in its `<list>`) and sends `read-self` when the account's
 * privacy setting hides read receipts, which it asks WhatsApp for once per connection.
 */
export async function markRead(socket: WASocket, messages: ReceivedMessageRef[]): Promise<void> {
  await socket.readMessages(
    messages.map((message) => ({
      remoteJid: message.chatJid,
      id: message.id,
      fromMe: false,
      ...(message.participant ? { participant: message.participant } : {}),
    })),
  )
}

/**
 * `<chatstate>` for a chat (recording is `composing media="audio"`), `<presence>` for the
 * account. Baileys drops an account presence silently when it knows no profile name, so that
 * case is refused here instead of answered as done.
 */
export async function sendPresence(socket: WASocket, update: PresenceUpdate): Promise<void> {
  if (!('chatJid' in update)) {
    if (!socket.authState.creds.me?.name)
      throw new EngineError('upstream', 'WhatsApp has not given this device the account’s profile name yet')
    await socket.sendPresenceUpdate(update.state)
    return
  }
  await socket.sendPresenceUpdate(update.state, update.chatJid)
}
