// Which chunks the phone sends a newly linked device, in order: INITIAL_BOOTSTRAP (every
// conversation with its newest few messages, and the LID mappings), PUSH_NAME, then only for a
// device that asked for a full sync RECENT (the newer half of the rest) and FULL (the older half).
// No chunk holds more than `messagesPerChunk` messages (a conversation spreads over several), none
// a message older than the device's day limit; `progress` reaches 100 on the last one.
import { proto } from '@whiskeysockets/baileys'
import type { HistoryRequest } from './account'
import { historyMessage } from './history-messages'
import { countSince, messageTime, type SeededConversation, type SeededHistory } from './history-model'

const SyncType = proto.HistorySync.HistorySyncType

/** Messages per conversation in the bootstrap: what a device shows at once. */
export const BOOTSTRAP_MESSAGES = 3

/** A conversation's messages [from, to) (indices, 0 oldest), sent newest first. */
interface Segment {
  conversation: SeededConversation
  from: number
  to: number
}

export interface PlannedChunk {
  syncType: proto.HistorySync.HistorySyncType
  chunkOrder: number
  progress: number
  segments: Segment[]
  messages: number
}

/** Fills chunks of at most `limit` messages, splitting a conversation where a chunk is full. */
const fill = (segments: Segment[], limit: number, keepEmpty: boolean): Segment[][] => {
  const chunks: Segment[][] = []
  let current: Segment[] = []
  let count = 0
  for (const segment of segments) {
    if (segment.to === segment.from) {
      if (keepEmpty) current.push(segment)
      continue
    }
    let to = segment.to
    while (to > segment.from) {
      if (count === limit) {
        chunks.push(current)
        current = []
        count = 0
      }
      const from = Math.max(segment.from, to - (limit - count))
      current.push({ conversation: segment.conversation, from, to })
      count += to - from
      to = from
    }
  }
  if (current.length || chunks.length === 0) chunks.push(current)
  return chunks
}

/** The chunks for `request`, `now` (s) the moment of sending (the day limit counts from it). */
export const planChunks = (history: SeededHistory, request: HistoryRequest, now: number): PlannedChunk[] => {
  const limit = request.fullSyncDaysLimit
  const cutoff = limit ? now - limit * 86_400 : Number.NEGATIVE_INFINITY
  const bootstrap: Segment[] = []
  const recent: Segment[] = []
  const full: Segment[] = []
  for (const conversation of history.conversations) {
    const n = conversation.messages
    const oldest = n - countSince(history, conversation, cutoff)
    const split = Math.max(oldest, n - BOOTSTRAP_MESSAGES)
    bootstrap.push({ conversation, from: split, to: n })
    const middle = oldest + Math.floor((split - oldest) / 2)
    recent.push({ conversation, from: middle, to: split })
    full.push({ conversation, from: oldest, to: middle })
  }
  const perChunk = history.messagesPerChunk
  const typed: [proto.HistorySync.HistorySyncType, Segment[][]][] = [
    [SyncType.INITIAL_BOOTSTRAP, fill(bootstrap, perChunk, true)],
    [SyncType.PUSH_NAME, [[]]],
  ]
  if (request.requireFullSync) {
    const recentChunks = fill(recent, perChunk, false).filter((chunk) => chunk.length)
    const fullChunks = fill(full, perChunk, false).filter((chunk) => chunk.length)
    if (recentChunks.length) typed.push([SyncType.RECENT, recentChunks])
    if (fullChunks.length) typed.push([SyncType.FULL, fullChunks])
  }
  const total = typed.reduce((sum, [, chunks]) => sum + chunks.length, 0)
  let sent = 0
  return typed.flatMap(([syncType, chunks]) =>
    chunks.map((segments, i) => ({
      syncType,
      chunkOrder: i + 1,
      progress: Math.floor((++sent * 100) / total),
      segments,
      messages: segments.reduce((sum, segment) => sum + segment.to - segment.from, 0),
    })),
  )
}

/** Everyone the history names: each contact once, by the jid its chat uses (LID unless addressed by number). */
const parties = (history: SeededHistory) => {
  const byPhone = new Map<string, { jid: string; pn: string; lid: string; pushName: string }>()
  for (const conversation of history.conversations) {
    for (const party of conversation.authors) {
      if (byPhone.has(party.phone)) continue
      const byNumber = conversation.kind === 'chat' && conversation.addressing === 'pn'
      const pn = `${party.phone}@s.whatsapp.net`
      const lid = `${party.lid}@lid`
      byPhone.set(party.phone, { jid: byNumber ? pn : lid, pn, lid, pushName: party.pushName })
    }
  }
  return [...byPhone.values()]
}

const conversationOf = (history: SeededHistory, segment: Segment): proto.IConversation => {
  const c = segment.conversation
  const messages: proto.IHistorySyncMsg[] = []
  for (let index = segment.to - 1; index >= segment.from; index--)
    messages.push({ message: historyMessage(history, c, index), msgOrderId: index + 1 })
  const contact = c.kind === 'chat' ? c.authors[0]! : undefined
  return {
    id: c.jid,
    messages,
    name: c.name,
    ...(contact ? { displayName: c.name } : {}),
    ...(contact && c.addressing === 'lid' ? { pnJid: `${contact.phone}@s.whatsapp.net` } : {}),
    ...(contact && c.addressing === 'pn' ? { lidJid: `${contact.lid}@lid` } : {}),
    conversationTimestamp: c.newest,
    lastMsgTimestamp: c.newest,
    unreadCount: c.unread,
    ...(c.archived ? { archived: true } : {}),
    ...(c.pinned ? { pinned: c.pinned } : {}),
    ...(c.muteEndTime ? { muteEndTime: c.muteEndTime } : {}),
  }
}

/** The HistorySync a planned chunk stands for, built now (the messages exist only while it is encoded). */
export const buildHistorySync = (history: SeededHistory, chunk: PlannedChunk): proto.IHistorySync => {
  const base = { syncType: chunk.syncType, chunkOrder: chunk.chunkOrder, progress: chunk.progress }
  if (chunk.syncType === SyncType.PUSH_NAME)
    return { ...base, conversations: [], pushnames: parties(history).map((p) => ({ id: p.jid, pushname: p.pushName })) }
  return {
    ...base,
    conversations: chunk.segments.map((segment) => conversationOf(history, segment)),
    ...(chunk.syncType === SyncType.INITIAL_BOOTSTRAP && chunk.chunkOrder === 1
      ? { phoneNumberToLidMappings: parties(history).map((p) => ({ pnJid: p.pn, lidJid: p.lid })) }
      : {}),
  }
}

/** The oldest message's time in a chunk (s), for the notification's oldestMsgInChunkTimestampSec. */
export const oldestInChunk = (history: SeededHistory, chunk: PlannedChunk): number | undefined => {
  const times = chunk.segments
    .filter((segment) => segment.to > segment.from)
    .map((segment) => messageTime(history, segment.conversation, segment.from))
  return times.length ? Math.min(...times) : undefined
}
