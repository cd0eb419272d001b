import { toOwnMessage } from '../messages/own-message'
import type { ListenerContext } from './types'

/**
 * What the account itself sends from WhatsApp (its phone, another linked device) reaches this
 * device as `fromMe` upserts, live (`notify`) or from the offline queue (`append`); so do this
 * gateway's own sends when Baileys emits them. Reported synchronously, as inbound messages are,
 * so the record commits before Baileys' `sender` receipt lets WhatsApp forget the message.
 */
export function attachOwnMessageListener({ socket, logger, report }: ListenerContext): void {
  socket.ev.on('messages.upsert', ({ messages }) => {
    for (const raw of messages) {
      try {
        const message = toOwnMessage(raw)
        if (message) report({ type: 'own-message', message })
      } catch (error) {
        logger.warn({ err: error, messageId: raw.key?.id }, 'could not read a message the account sent')
      }
    }
  })
}
