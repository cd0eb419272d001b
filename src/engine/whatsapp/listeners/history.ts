import { getHistoryMsg, proto } from '@whiskeysockets/baileys'
import type { HistoryChunkType } from '../port/history'
import type { ListenerContext } from './types'

const Type = proto.HistorySync.HistorySyncType
const TYPES = new Map<number, HistoryChunkType>([
  [Type.INITIAL_BOOTSTRAP, 'initial_bootstrap'],
  [Type.RECENT, 'recent'],
  [Type.FULL, 'full'],
  [Type.PUSH_NAME, 'push_name'],
  [Type.ON_DEMAND, 'on_demand'],
])

/**
 * History-sync notifications. A session that asked for history has each reported as it
 * arrives, synchronously, so it is stored before Baileys acknowledges it and WhatsApp forgets it
 * (patches/); reading the chunk is the services' job, later. Any other session has only its
 * bootstrap read here, for the LID mappings and privacy tokens it carries (`readForKeys`).
 * Only the account's own phone sends these: Baileys drops one that is not fromMe, and so does this.
 */
export function attachHistoryListener(
  { socket, logger, report }: ListenerContext,
  { history, readForKeys }: { history: boolean; readForKeys(notification: Uint8Array): void },
): void {
  socket.ev.on('messages.upsert', ({ messages }) => {
    for (const raw of messages) {
      const notification =
        raw.key?.fromMe && raw.key.id ? (raw.message ? getHistoryMsg(raw.message) : undefined) : undefined
      if (!notification || notification.syncType == null) continue
      const syncType = TYPES.get(notification.syncType)
      if (!syncType) continue
      if (!history) {
        if (syncType === 'initial_bootstrap')
          readForKeys(proto.Message.HistorySyncNotification.encode(notification).finish())
        continue
      }
      try {
        report({
          type: 'history-chunk',
          chunk: {
            id: raw.key.id!,
            syncType,
            chunkOrder: Number(notification.chunkOrder ?? 0),
            progress: Math.min(100, Math.max(0, Number(notification.progress ?? 0))),
            notification: proto.Message.HistorySyncNotification.encode(notification).finish(),
          },
        })
      } catch (error) {
        logger.warn({ err: error, messageId: raw.key.id }, 'could not read a history notification')
      }
    }
  })
}
