import { jidNormalizedUser, type WASocket } from '@whiskeysockets/baileys'
import { buildMergedTcTokenIndexWrite, resolveTcTokenJid } from '../baileys-internals'
import type { HistoryTcToken } from './read-history'

/**
 * Keeps the privacy tokens WhatsApp gives per chat in history in the socket's own store, as
 * Baileys' own history reader stores them (by LID where known, the newest winning), so Baileys
 * attaches a chat's token to each 1:1 send as WhatsApp Web does.
 */
export async function storeTcTokens(socket: WASocket, tokens: HistoryTcToken[]): Promise<void> {
  const keys = socket.authState.keys
  const lidMapping = socket.signalRepository.lidMapping
  const getLIDForPN = lidMapping.getLIDForPN.bind(lidMapping)
  const named = await Promise.all(
    tokens.map(async (token) => ({
      ...token,
      jid: await resolveTcTokenJid(jidNormalizedUser(token.jid), getLIDForPN),
    })),
  )
  const existing = await keys.get(
    'tctoken',
    named.map((t) => t.jid),
  )
  const entries: Record<string, { token: Buffer; timestamp: string; senderTimestamp?: number }> = {}
  for (const { jid, token, timestamp, senderTimestamp } of named) {
    if (Number(existing[jid]?.timestamp ?? 0) >= timestamp) continue
    entries[jid] = {
      ...existing[jid],
      token: Buffer.from(token),
      timestamp: String(timestamp),
      ...(senderTimestamp ? { senderTimestamp } : {}),
    }
  }
  if (Object.keys(entries).length === 0) return
  const index = await buildMergedTcTokenIndexWrite(keys, Object.keys(entries))
  await keys.set({ tctoken: { ...entries, ...index } })
}
