import type { BinaryNode } from '@whiskeysockets/baileys'
import type { ListenerContext } from './types'

/** WhatsApp's error codes in a message ack that deserve their own reason. */
const ACK_ERROR_REASONS: Record<string, string> = {
  // The account may not start new chats (missing privacy token / restricted): a limit, not a bug.
  '463': 'new_chat_limit',
  '479': 'rejected_by_server',
}

/**
 * The server's ack of each message we sent: no error means `sent`; an error means the
 * network refused it. Baileys does not surface positive acks, so this reads the stanza.
 */
export function attachAckListener({ socket, report }: ListenerContext): void {
  socket.ws.on('CB:ack,class:message', (node: BinaryNode) => {
    const { id, from, error } = node.attrs
    if (!id || !from) return
    if (!error) return report({ type: 'receipt', messageId: id, chatJid: from, status: 'sent' })
    report({
      type: 'receipt',
      messageId: id,
      chatJid: from,
      status: 'failed',
      reason: ACK_ERROR_REASONS[error] ?? `error_${error}`,
    })
  })
}
