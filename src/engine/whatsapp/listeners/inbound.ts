import { toInboundChange, toInboundMessage } from '../messages/inbound-message'
import type { ListenerContext } from './types'

/**
 * Messages from other people, and their later edits and revokes. Both kinds of upsert count:
 * `notify` for what arrives live, `append` for what WhatsApp's offline queue relays again after
 * a reconnect or a restart (stanzas marked `offline`), as new to the app as the rest. History
 * sync comes another way (messaging-history.set) and is not recorded. The report is synchronous:
 * the record and its event are committed before Baileys sends the delivery receipt that lets
 * WhatsApp forget the message, and before the Signal keys it consumed (patches/ in the repository).
 */
export function attachInboundListener({ socket, logger, report }: ListenerContext): void {
  socket.ev.on('messages.upsert', ({ messages }) => {
    for (const raw of messages) {
      try {
        const message = toInboundMessage(raw)
        if (message) report({ type: 'message', message })
      } catch (error) {
        logger.warn({ err: error, messageId: raw.key?.id }, 'could not read an inbound message')
      }
    }
  })
  socket.ev.on('messages.update', (updates) => {
    for (const update of updates) {
      const change = toInboundChange(update)
      if (change) report({ type: 'message-change', change })
    }
  })
}
