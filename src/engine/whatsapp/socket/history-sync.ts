import { proto } from '@whiskeysockets/baileys'

const Type = proto.HistorySync.HistorySyncType

/**
 * Which history-sync notifications Baileys processes. The initial bootstrap and push names
 * carry the phone-number ↔ LID mappings that sending to migrated (LID) chats needs; Baileys
 * 7 warns that refusing every type starves it of them. Recent and full history are refused:
 * the gateway reports live traffic only, and refusing RECENT is also what stops Baileys from
 * holding events back for up to 20 s on a first connect while it waits for that history.
 */
const PROCESSED = new Set<number>([Type.INITIAL_BOOTSTRAP, Type.PUSH_NAME, Type.NON_BLOCKING_DATA])

export function shouldSyncHistory(notification: proto.Message.IHistorySyncNotification): boolean {
  return notification.syncType != null && PROCESSED.has(notification.syncType)
}
