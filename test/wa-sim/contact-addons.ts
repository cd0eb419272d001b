// What a contact's phone builds for polls, votes and reactions, as WhatsApp clients do: a poll
// with its 32-byte secret, a vote encrypted with the secret of the poll it names (see
// poll-crypto.ts), a reaction naming its target message by key from the contact's point of view.
import { proto } from '@whiskeysockets/baileys'
import { randomBytes } from 'node:crypto'
import type { Account } from './account'
import type { Contact } from './contact'
import type { BuiltContent } from './contact-content'
import { SimulatorError } from './errors'
import { encryptVote } from './poll-crypto'

export interface PollContent {
  poll: { question: string; options: string[]; selectableCount?: number }
}

export type JidForm = 'pn' | 'lid'

export interface VoteContent {
  vote: {
    pollId: string
    /** Option names; [] takes the contact's vote back. */
    options: string[]
    /**
     * Which form of the creator's and the voter's jids the key is derived with. Default: the
     * chat's addressing for both (LID in groups and LID-addressed chats, else the number), as
     * WhatsApp Web does; phones have been seen mixing them.
     */
    jids?: { creator: JidForm; voter: JidForm }
    /** A vote on a poll the contact does not have (unknown id), under a secret of its own. */
    forged?: boolean
  }
}

export interface ReactionContent {
  /** '' removes the contact's reaction. `forged`: a message id the contact never saw. */
  react: { messageId: string; emoji: string; forged?: boolean }
}

export type AddonContent = PollContent | VoteContent | ReactionContent

/** Where the add-on goes, as the send is addressed. */
export interface AddonAddress {
  group?: string
  fromLid?: boolean
}

export const isAddon = (content: object): content is AddonContent =>
  'poll' in content || 'vote' in content || 'react' in content

/** A poll creation message of the version clients send: V3 for single choice, else the first. */
export const pollMessage = ({ question, options, selectableCount = 1 }: PollContent['poll']): proto.Message => {
  const poll = {
    name: question,
    options: options.map((optionName) => ({ optionName })),
    selectableOptionsCount: selectableCount,
  }
  return proto.Message.fromObject({
    ...(selectableCount === 1 ? { pollCreationMessageV3: poll } : { pollCreationMessage: poll }),
    messageContextInfo: { messageSecret: randomBytes(32) },
  })
}

export const buildAddon = (
  account: Account,
  contact: Contact,
  content: AddonContent,
  address: AddonAddress,
): BuiltContent => {
  if ('poll' in content) return { message: pollMessage(content.poll), type: 'poll' }
  if ('vote' in content) return { message: voteMessage(account, contact, content.vote, address), type: 'poll' }
  return { message: reactionMessage(account, contact, content.react, address), type: 'reaction' }
}

const jidOf = (party: { pnJid: string; lidJid: string }, form: JidForm) => (form === 'lid' ? party.lidJid : party.pnJid)

/** A message the contact knows: one an account sent it (its inbox) or one it sent itself. */
const knownMessage = (contact: Contact, messageId: string) => {
  const received = contact.inbox.list().find((entry) => entry.id === messageId)
  if (received) return { message: received.message, chat: received.chat, own: false }
  const sent = contact.sent.get(messageId)
  return sent ? { message: sent.message, chat: sent.chat, own: true } : undefined
}

/** The target's key as the contact's phone names it: the chat, whose it is, and in groups who wrote it. */
const keyFor = (account: Account, messageId: string, own: boolean, address: AddonAddress) => {
  const form: JidForm = address.group || address.fromLid ? 'lid' : 'pn'
  if (address.group)
    return {
      remoteJid: address.group,
      fromMe: own,
      id: messageId,
      ...(own ? {} : { participant: jidOf(account, form) }),
    }
  return { remoteJid: jidOf(account, form), fromMe: own, id: messageId }
}

const voteMessage = (account: Account, contact: Contact, vote: VoteContent['vote'], address: AddonAddress) => {
  const known = knownMessage(contact, vote.pollId)
  const secret = vote.forged ? randomBytes(32) : known?.message.messageContextInfo?.messageSecret
  if (!vote.forged && !(known && secret))
    throw new SimulatorError('unknown_message', `${contact.phone} has no poll ${vote.pollId}`, 404)
  const own = known?.own ?? false
  const chatForm: JidForm = address.group || address.fromLid ? 'lid' : 'pn'
  const jids = vote.jids ?? { creator: chatForm, voter: chatForm }
  const encrypted = encryptVote(
    secret!,
    {
      pollId: vote.pollId,
      creatorJid: jidOf(own ? contact : account, jids.creator),
      voterJid: jidOf(contact, jids.voter),
    },
    vote.options,
  )
  return proto.Message.fromObject({
    pollUpdateMessage: {
      pollCreationMessageKey: keyFor(account, vote.pollId, own, address),
      vote: encrypted,
      senderTimestampMs: Date.now(),
    },
  })
}

const reactionMessage = (
  account: Account,
  contact: Contact,
  react: ReactionContent['react'],
  address: AddonAddress,
) => {
  const known = knownMessage(contact, react.messageId)
  if (!known && !react.forged)
    throw new SimulatorError('unknown_message', `${contact.phone} never saw message ${react.messageId}`, 404)
  return proto.Message.fromObject({
    reactionMessage: {
      key: keyFor(account, react.messageId, known?.own ?? false, address),
      text: react.emoji,
      senderTimestampMs: Date.now(),
    },
  })
}
