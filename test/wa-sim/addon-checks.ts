// What a recipient's phone checks in the polls, votes and reactions an account sends, recorded as
// violations where it would refuse or drop them: a poll it could not show, a vote that names no
// poll it knows or does not decrypt with that poll's secret, a reaction to no message of the chat;
// and a malformed link preview or forward marks (preview-forward-checks.ts).
import { normalizeMessageContent, type BinaryNode, type proto } from '@whiskeysockets/baileys'
import type { Account } from './account'
import type { Contact } from './contact'
import { childrenOf } from './node-utils'
import { decryptVote, optionHash } from './poll-crypto'
import { contextOf, forwardProblem, linkPreviewProblem } from './preview-forward-checks'
import type { SimState } from './state'

export const MAX_POLL_OPTIONS = 12

/** Where the message went: a contact's 1:1 chat, or a group. */
export interface AddonChat {
  contact: Contact
  group?: string
}

const userOf = (jid: string | null | undefined) => (jid ?? '').split('@')[0]?.split(':')[0] ?? ''
const contactOf = (state: SimState, jid: string | null | undefined) =>
  state.lookupUser(userOf(jid), (jid ?? '').split('@')[1] ?? '').contact

export const pollOf = (message: proto.IMessage) =>
  message.pollCreationMessage ??
  message.pollCreationMessageV2 ??
  message.pollCreationMessageV3 ??
  message.pollCreationMessageV5

export const checkAddons = (
  state: SimState,
  account: Account,
  node: BinaryNode,
  message: proto.IMessage,
  chat: AddonChat,
): void => {
  const content = normalizeMessageContent(message)
  if (!content) return
  const violation = (kind: Parameters<SimState['violations']['record']>[1], detail: string) =>
    state.violations.record(account.phone, kind, `${detail} (message ${node.attrs.id})`)
  const poll = pollOf(content)
  if (poll) {
    const problem = pollProblem(poll, content, node)
    if (problem) violation('malformed-poll', problem)
  }
  if (content.extendedTextMessage) {
    const problem = linkPreviewProblem(content.extendedTextMessage)
    if (problem) violation('malformed-link-preview', problem)
  }
  const forwarded = forwardProblem(contextOf(content))
  if (forwarded) violation('malformed-forward', forwarded)
  if (content.reactionMessage) {
    const problem = referenceProblem(state, account, content.reactionMessage.key, chat)
    if (problem) violation('unknown-message-reference', `reaction: ${problem}`)
  }
  if (content.pollUpdateMessage) {
    const problem = voteProblem(state, account, content.pollUpdateMessage, chat)
    if (problem) violation(problem.kind, problem.detail)
  }
}

const pollProblem = (poll: proto.Message.IPollCreationMessage, content: proto.IMessage, node: BinaryNode) => {
  const options = (poll.options ?? []).map((option) => option.optionName ?? '')
  if (!poll.name) return 'a poll without a question'
  if (options.length < 2 || options.length > MAX_POLL_OPTIONS)
    return `a poll with ${options.length} options (2 to ${MAX_POLL_OPTIONS})`
  if (options.some((option) => option === '')) return 'a poll with an empty option'
  if (new Set(options).size !== options.length) return 'a poll with two options alike (votes could not tell them apart)'
  const selectable = poll.selectableOptionsCount ?? 0
  if (selectable < 0 || selectable > options.length)
    return `a poll with selectableOptionsCount ${selectable} for ${options.length} options`
  if (content.messageContextInfo?.messageSecret?.length !== 32) return 'a poll without its 32-byte messageSecret'
  const meta = childrenOf(node).find((child) => child.tag === 'meta')
  if (meta?.attrs.polltype !== 'creation') return 'a poll stanza without <meta polltype="creation"/>'
  return undefined
}

/**
 * A key from the account's point of view must name a message of this chat: one the account sent
 * (fromMe), or one the contact (in a group: the participant) sent to it there.
 */
const referenceProblem = (
  state: SimState,
  account: Account,
  key: proto.IMessageKey | null | undefined,
  chat: AddonChat,
): string | undefined => {
  const id = key?.id
  if (!id) return 'a key without an id'
  const chatUsers = chat.group ? [chat.group.split('@')[0]] : [chat.contact.phone, chat.contact.lid]
  if (!chatUsers.includes(userOf(key.remoteJid))) return `key ${id} names chat ${key.remoteJid}, not this one`
  if (key.fromMe) return account.sentMessageIds.has(id) ? undefined : `${id} is no message the account sent`
  const author = chat.group ? contactOf(state, key.participant) : chat.contact
  const sent = author?.sent.get(id)
  const inChat =
    sent && sent.account === account.phone && (chat.group ? sent.chat === chat.group : !sent.chat.endsWith('@g.us'))
  return inChat
    ? undefined
    : `${id} is no message ${chat.group ? (key.participant ?? 'anyone') : chat.contact.phone} sent in this chat`
}

const voteProblem = (
  state: SimState,
  account: Account,
  update: proto.Message.IPollUpdateMessage,
  chat: AddonChat,
): { kind: 'unknown-message-reference' | 'undecryptable-vote'; detail: string } | undefined => {
  const key = update.pollCreationMessageKey
  const problem = referenceProblem(state, account, key, chat)
  if (problem) return { kind: 'unknown-message-reference', detail: `vote: ${problem}` }
  const pollId = key!.id!
  // The poll as its recipients hold it: the account's (in the contact's inbox) or the contact's own.
  const author = key!.fromMe ? undefined : chat.group ? contactOf(state, key!.participant) : chat.contact
  const creator = key!.fromMe ? account : author
  const pollMessage = key!.fromMe
    ? chat.contact.inbox.list().find((entry) => entry.id === pollId)?.message
    : author?.sent.get(pollId)?.message
  const poll = pollMessage ? pollOf(normalizeMessageContent(pollMessage) ?? {}) : undefined
  const secret = pollMessage?.messageContextInfo?.messageSecret
  if (!poll || !secret || !creator)
    return { kind: 'unknown-message-reference', detail: `vote on ${pollId}, which is no poll` }
  const hashes = [account.pnJid, account.lidJid].flatMap((voterJid) =>
    [creator.pnJid, creator.lidJid].map((creatorJid) =>
      decryptVote(secret, { pollId, creatorJid, voterJid }, update.vote ?? {}),
    ),
  )
  const selected = hashes.find((found) => found !== undefined)
  if (!selected)
    return { kind: 'undecryptable-vote', detail: `vote on ${pollId} does not decrypt with the poll's secret` }
  const known = new Set((poll.options ?? []).map((option) => optionHash(option.optionName ?? '').toString('hex')))
  if (selected.some((hash) => !known.has(hash.toString('hex'))))
    return { kind: 'undecryptable-vote', detail: `vote on ${pollId} picks an option the poll does not have` }
  return undefined
}
