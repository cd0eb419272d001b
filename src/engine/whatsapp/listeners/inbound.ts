import { toInboundChange, toInboundMessage } from '../inbound-message'
import type { ListenerContext } from './types'

/**
 * Messages from other people (`notify` upserts), and their later edits and revokes. History
 * appends are not recorded: the gateway reports what arrives while it is linked.
 */
export function attachInboundListener({ socket, logger, report }: ListenerContext): void {
  socket.ev.on('messages.upsert', ({ messages, type }) => {
    if (type !== 'notify') return
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
