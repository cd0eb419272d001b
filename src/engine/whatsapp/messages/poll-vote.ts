import { createHash } from 'node:crypto'
import { decryptPollVote, normalizeMessageContent, proto, type WAMessage } from '@whiskeysockets/baileys'
import { authorOf, chatParty, type OwnJids } from '../jid'
import { isChatMessage, timestampMs } from './message-keys'
import { describePoll, pollCreationOf } from './poll-content'
import type { PollVote } from '../port/messages'

export type PollVoteOutcome = { vote: PollVote } | { skipped: string; pollId?: string }

/** A vote is at most 12 SHA-256 hashes in a protobuf: anything far larger is not a vote. */
const MAX_ENC_PAYLOAD_BYTES = 2048
const GCM_IV_BYTES = 12
const SECRET_BYTES = 32

const hashOf = (option: string) => createHash('sha256').update(option).digest('hex')

/**
 * Pure but for `pollPayload` (the stored proto of a message the session has): a Baileys
 * `messages.upsert` entry → a decrypted vote, or why it was not one. rc14 leaves votes to the
 * app (its own decryption is commented out): only polls the account created are read, with
 * the secret kept in their stored proto (`messageContextInfo.messageSecret`).
 *
 * The vote is encrypted under a key derived from the poll's id, its creator's jid and the
 * voter's jid, and clients differ in which form (number or LID) they use for each (WhatsApp Web
 * uses the chat's addressing for both; phones have been seen mixing them), so each pairing of
 * the forms known is tried: at most four AES-GCM attempts, authenticated, so a wrong one fails.
 */
export function toPollVote(
  message: WAMessage,
  own: OwnJids,
  pollPayload: (pollId: string) => Uint8Array | undefined,
): PollVoteOutcome | null {
  const key = message.key
  if (!isChatMessage(key)) return null
  const update = normalizeMessageContent(message.message)?.pollUpdateMessage
  if (!update) return null
  const pollKey = update.pollCreationMessageKey
  const pollId = pollKey?.id ?? undefined
  if (!pollId) return { skipped: 'the vote names no poll' }
  // cleanMessage turned the poll's key to the account's view: fromMe is "the account created it".
  if (!pollKey?.fromMe) return { skipped: 'a vote on a poll this session did not create', pollId }
  const { encPayload, encIv } = update.vote ?? {}
  if (!encPayload?.length || encPayload.length > MAX_ENC_PAYLOAD_BYTES || encIv?.length !== GCM_IV_BYTES)
    return { skipped: 'a vote without a well-formed encrypted value', pollId }
  const payload = pollPayload(pollId)
  const stored = payload ? normalizeMessageContent(proto.Message.decode(payload)) : undefined
  const poll = stored ? pollCreationOf(stored) : undefined
  const secret = stored?.messageContextInfo?.messageSecret
  if (!poll || !secret || secret.length !== SECRET_BYTES)
    return { skipped: 'a vote on no poll this session has', pollId }

  const voter = authorOf(key, own)
  const voterJids = key.fromMe
    ? [own.pnJid, own.lidJid]
    : key.participant
      ? [key.participant, key.participantAlt]
      : [key.remoteJid, key.remoteJidAlt]
  const selected = decryptWithAnyForm(encPayload, encIv, pollId, secret, [own.pnJid, own.lidJid], voterJids)
  if (!selected) return { skipped: 'a vote that does not decrypt with the poll’s secret', pollId }

  const { options, selectableCount } = describePoll(poll)
  const byHash = new Map(options.map((option) => [hashOf(option), option]))
  const picked = new Set<string>()
  for (const hash of selected) {
    const option = byHash.get(Buffer.from(hash).toString('hex'))
    if (option === undefined) return { skipped: 'a vote for an option the poll does not have', pollId }
    picked.add(option)
  }
  if (selectableCount > 0 && picked.size > selectableCount)
    return { skipped: `a vote for ${picked.size} options where ${selectableCount} may be picked`, pollId }

  const chat = chatParty(key.remoteJid, key.remoteJidAlt)
  return {
    vote: {
      id: key.id,
      pollId,
      chatJid: key.remoteJid,
      ...(chat.group ? {} : { phone: chat.phone, lid: chat.lid }),
      fromMe: Boolean(key.fromMe),
      ...(voter.phone ? { voterPhone: voter.phone } : {}),
      ...(voter.lid ? { voterLid: voter.lid } : {}),
      selectedOptions: options.filter((option) => picked.has(option)),
      timestamp: new Date(timestampMs(update.senderTimestampMs, message.messageTimestamp)),
    },
  }
}

type Jid = string | null | undefined

function decryptWithAnyForm(
  encPayload: Uint8Array,
  encIv: Uint8Array,
  pollMsgId: string,
  pollEncKey: Uint8Array,
  creators: Jid[],
  voters: Jid[],
): Uint8Array[] | undefined {
  for (const pollCreatorJid of unique(creators)) {
    for (const voterJid of unique(voters)) {
      try {
        const vote = decryptPollVote({ encPayload, encIv }, { pollCreatorJid, pollMsgId, pollEncKey, voterJid })
        return vote.selectedOptions ?? []
      } catch {
        // authenticated encryption: another form of the jids may be the one the voter used
      }
    }
  }
  return undefined
}

const unique = (jids: Jid[]): string[] => [...new Set(jids.filter((jid): jid is string => Boolean(jid)))]
