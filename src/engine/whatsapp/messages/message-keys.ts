import type { WAMessage } from '@whiskeysockets/baileys'

type Key = WAMessage['key']

/** A message of a chat (1:1 or group) with an id: not a status, broadcast list or newsletter post. */
export function isChatMessage(key: Key | null | undefined): key is Key & { id: string; remoteJid: string } {
  const jid = key?.remoteJid
  if (!key?.id || !jid) return false
  return jid !== 'status@broadcast' && !jid.endsWith('@broadcast') && !jid.endsWith('@newsletter')
}

type LongLike = number | { toNumber(): number } | null | undefined

const toNumber = (value: LongLike): number => (value == null ? 0 : typeof value === 'number' ? value : value.toNumber())

/**
 * When the sender's phone made an add-on (a reaction, a vote): its own millisecond stamp, else the
 * stanza's seconds, else now.
 */
export function timestampMs(senderTimestampMs: LongLike, messageTimestamp: WAMessage['messageTimestamp']): number {
  const ms = toNumber(senderTimestampMs)
  if (ms > 0) return ms
  const seconds = toNumber(messageTimestamp as LongLike)
  return seconds > 0 ? seconds * 1000 : Date.now()
}
