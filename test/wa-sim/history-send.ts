// The phone sends its history to a newly linked device, as WhatsApp does: once the device has
// uploaded its prekeys (right after the app-state key share), one history-sync notification per
// chunk, one after the other without waiting for acknowledgements. Each chunk is a HistorySync,
// zlib-deflated, encrypted as media (key type md-msg-hist) and stored on the media host; the
// notification (a peer protocol message) names it by direct path only, with its keys and hashes.
import { proto } from '@whiskeysockets/baileys'
import { promisify } from 'node:util'
import { deflate } from 'node:zlib'
import type { Account, HistoryNotificationRecord } from './account'
import { encryptAndUpload } from './contact-media'
import { buildHistorySync, oldestInChunk, planChunks } from './history-chunks'
import { serverMessageId } from './node-utils'
import { sendPeerMessage } from './peer-message'
import type { SimState } from './state'

const deflateAsync = promisify(deflate)

export type HistorySyncTypeName = keyof typeof proto.HistorySync.HistorySyncType

export interface HistoryFile {
  syncType: proto.HistorySync.HistorySyncType
  chunkOrder: number
  progress: number
  /** Messages in it, as recorded in historySent() */
  messages: number
  oldestMessage?: number
}

/** Stores `file` (what the device downloads and decrypts: deflated, or raw bytes) and notifies the device. */
export const sendHistoryFile = async (
  state: SimState,
  account: Account,
  file: Buffer,
  info: HistoryFile,
): Promise<string> => {
  const upload = await encryptAndUpload(state, file, 'md-msg-hist', '/mms/md-msg-hist')
  const message: proto.IMessage = {
    protocolMessage: {
      type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
      historySyncNotification: {
        fileSha256: upload.fileSha256,
        fileLength: upload.fileLength,
        mediaKey: upload.mediaKey,
        fileEncSha256: upload.fileEncSha256,
        // WhatsApp names no url: the device builds it from the direct path and its media host
        directPath: upload.directPath,
        syncType: info.syncType as number as proto.Message.HistorySyncType,
        chunkOrder: info.chunkOrder,
        progress: info.progress,
        ...(info.oldestMessage !== undefined ? { oldestMsgInChunkTimestampSec: info.oldestMessage } : {}),
      },
    },
  }
  const id = serverMessageId('3A')
  const record: HistoryNotificationRecord = {
    id,
    syncType: proto.HistorySync.HistorySyncType[info.syncType],
    chunkOrder: info.chunkOrder,
    progress: info.progress,
    messages: info.messages,
    receipts: new Set(),
  }
  account.historySent.push(record)
  return sendPeerMessage(state, account, message, 'history-sync', id)
}

/** After linking: every chunk of the phone's seeded history the device asked for (nothing when none was seeded). */
export const sendHistoryAtLinking = async (state: SimState, account: Account): Promise<void> => {
  const history = state.histories.get(account.phone)
  if (!history || account.historySyncStarted) return
  account.historySyncStarted = true
  for (const conversation of history.conversations)
    for (const party of conversation.authors) account.chats.add(party.phone).add(party.lid)
  const chunks = planChunks(history, account.historyRequest, Math.floor(Date.now() / 1000))
  for (const chunk of chunks) {
    if (!account.linked) return
    const encoded = proto.HistorySync.encode(buildHistorySync(history, chunk)).finish()
    const file = await deflateAsync(encoded)
    await sendHistoryFile(state, account, file, {
      syncType: chunk.syncType,
      chunkOrder: chunk.chunkOrder,
      progress: chunk.progress,
      messages: chunk.messages,
      oldestMessage: oldestInChunk(history, chunk),
    })
  }
}
