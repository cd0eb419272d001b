import { proto, type WAMessageUpdate } from '@whiskeysockets/baileys'
import type { ReceiptStatus } from '../port'
import type { ListenerContext } from './types'

const Status = proto.WebMessageInfo.Status

/** Baileys' numeric status → ours; ERROR is reported from the ack listener with its code. */
const byBaileysStatus: Partial<Record<number, ReceiptStatus>> = {
  [Status.SERVER_ACK]: 'sent',
  [Status.DELIVERY_ACK]: 'delivered',
  [Status.READ]: 'read',
  [Status.PLAYED]: 'played',
}

/**
 * Delivery receipts for messages we sent: 1:1 receipts arrive as `messages.update` with a
 * status, group receipts per participant as `message-receipt.update`.
 */
export function attachReceiptListener({ socket, report }: ListenerContext): void {
  socket.ev.on('messages.update', (updates: WAMessageUpdate[]) => {
    for (const { key, update } of updates) {
      const status = update.status == null ? undefined : byBaileysStatus[update.status]
      if (!status || !key.id || !key.remoteJid || !key.fromMe) continue
      report({ type: 'receipt', messageId: key.id, chatJid: key.remoteJid, status })
    }
  })
  socket.ev.on('message-receipt.update', (updates) => {
    for (const { key, receipt } of updates) {
      if (!key.id || !key.remoteJid) continue
      const status: ReceiptStatus | undefined = receipt.playedTimestamp
        ? 'played'
        : receipt.readTimestamp
          ? 'read'
          : receipt.receiptTimestamp
            ? 'delivered'
            : undefined
      if (status)
        report({
          type: 'receipt',
          messageId: key.id,
          chatJid: key.remoteJid,
          status,
          participant: receipt.userJid ?? undefined,
        })
    }
  })
}
