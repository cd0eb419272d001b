import type { proto } from '@whiskeysockets/baileys'

/**
 * Which history-sync notifications Baileys downloads and reads itself: none. Its reader fetches
 * the chunk on its own (https://mmg.whatsapp.net, outside the media address guard and the
 * session's proxy) and inflates it whole. The engine reads them instead (history/read-history.ts,
 * listeners/history.ts): the bootstrap of every session for its phone ↔ LID mappings and
 * privacy tokens, every chunk of a session that asked for history. Refusing RECENT is also what
 * stops Baileys from holding events back for up to 20 s on a first connect while it waits.
 */
export function shouldSyncHistory(_notification: proto.Message.IHistorySyncNotification): boolean {
  return false
}
