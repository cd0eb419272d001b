// The poll-vote encryption WhatsApp clients use, written out here (not Baileys' helper) so that a
// vote a contact casts is an independent check of the gateway's decryption: the poll's 32-byte
// secret → HKDF-SHA256 (zero salt; info = poll id | creator jid | voter jid | "Poll Vote") →
// AES-256-GCM over PollVoteMessage{selectedOptions: SHA-256 of each option's text}, with
// "<poll id>\0<voter jid>" as additional data and a random 12-byte IV.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto'
import { proto } from '@whiskeysockets/baileys'

export interface VoteJids {
  pollId: string
  /** The poll creator's and the voter's jids (`<user>@s.whatsapp.net` or `<user>@lid`, no device). */
  creatorJid: string
  voterJid: string
}

const GCM_TAG_BYTES = 16

const voteKey = (secret: Uint8Array, { pollId, creatorJid, voterJid }: VoteJids): Buffer => {
  const prk = createHmac('sha256', Buffer.alloc(32)).update(secret).digest()
  const info = Buffer.concat([
    Buffer.from(pollId),
    Buffer.from(creatorJid),
    Buffer.from(voterJid),
    Buffer.from('Poll Vote'),
  ])
  return createHmac('sha256', prk)
    .update(Buffer.concat([info, Buffer.from([1])]))
    .digest()
}

const additionalData = ({ pollId, voterJid }: VoteJids) => Buffer.from(`${pollId}\u0000${voterJid}`)

export const optionHash = (option: string): Buffer => createHash('sha256').update(option).digest()

/** A vote as a client sends it: `pollUpdateMessage.vote`. */
export function encryptVote(
  secret: Uint8Array,
  jids: VoteJids,
  options: string[],
): { encPayload: Buffer; encIv: Buffer } {
  const plaintext = proto.Message.PollVoteMessage.encode({ selectedOptions: options.map(optionHash) }).finish()
  const encIv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', voteKey(secret, jids), encIv)
  cipher.setAAD(additionalData(jids))
  const encPayload = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
  return { encPayload, encIv }
}

/** The option hashes of a vote, or undefined when it does not decrypt under these jids. */
export function decryptVote(
  secret: Uint8Array,
  jids: VoteJids,
  vote: { encPayload?: Uint8Array | null; encIv?: Uint8Array | null },
): Buffer[] | undefined {
  const { encPayload, encIv } = vote
  if (!encPayload || encPayload.length <= GCM_TAG_BYTES || encIv?.length !== 12) return undefined
  try {
    const decipher = createDecipheriv('aes-256-gcm', voteKey(secret, jids), encIv)
    decipher.setAAD(additionalData(jids))
    decipher.setAuthTag(encPayload.subarray(encPayload.length - GCM_TAG_BYTES))
    const plaintext = Buffer.concat([
      decipher.update(encPayload.subarray(0, encPayload.length - GCM_TAG_BYTES)),
      decipher.final(),
    ])
    return proto.Message.PollVoteMessage.decode(plaintext).selectedOptions.map((hash) => Buffer.from(hash))
  } catch {
    return undefined
  }
}
