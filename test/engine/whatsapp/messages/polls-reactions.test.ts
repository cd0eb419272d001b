import { proto, type WAMessage } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { toSendPlan } from '../../../../src/engine/whatsapp/messages/outbound-content'
import { toOwnMessage } from '../../../../src/engine/whatsapp/messages/own-message'
import { toPollVote } from '../../../../src/engine/whatsapp/messages/poll-vote'
import { toReaction } from '../../../../src/engine/whatsapp/messages/reaction'
import { encryptVote } from '../../../wa-sim/poll-crypto'

const OWN = { pnJid: '15550000001@s.whatsapp.net', lidJid: '900001@lid' }
const ANA = '15551230001@s.whatsapp.net'
const ANA_LID = '700001@lid'
const SECRET = new Uint8Array(32).fill(9)

const upsert = (key: Partial<WAMessage['key']>, message: proto.IMessage): WAMessage => ({
  key: { id: 'M1', remoteJid: ANA, remoteJidAlt: ANA_LID, fromMe: false, ...key },
  message,
  messageTimestamp: 1_795_000_000,
})

/** The stored proto of a poll the account sent, as recordHandover keeps it. */
const storedPoll = (options = ['Red', 'Green', 'Blue'], selectableOptionsCount = 2) =>
  proto.Message.encode({
    pollCreationMessageV3: {
      name: 'Colour?',
      options: options.map((optionName) => ({ optionName })),
      selectableOptionsCount,
    },
    messageContextInfo: { messageSecret: SECRET },
  }).finish()

const vote = (options: string[], jids: { creatorJid: string; voterJid: string }, key: Partial<WAMessage['key']> = {}) =>
  upsert(
    { id: 'V1', ...key },
    {
      pollUpdateMessage: {
        pollCreationMessageKey: { id: 'POLL1', remoteJid: ANA, fromMe: true },
        vote: encryptVote(SECRET, { pollId: 'POLL1', ...jids }, options),
        senderTimestampMs: 1_795_000_000_123,
      },
    },
  )

describe('toPollVote', () => {
  const payloads = (id: string) => (id === 'POLL1' ? storedPoll() : undefined)

  it('decrypts a vote with the poll’s stored secret and names the options in the poll’s order', () => {
    const outcome = toPollVote(vote(['Blue', 'Red'], { creatorJid: OWN.pnJid, voterJid: ANA }), OWN, payloads)
    expect(outcome).toEqual({
      vote: {
        id: 'V1',
        pollId: 'POLL1',
        chatJid: ANA,
        phone: '15551230001',
        lid: '700001',
        fromMe: false,
        voterPhone: '15551230001',
        voterLid: '700001',
        selectedOptions: ['Red', 'Blue'],
        timestamp: new Date(1_795_000_000_123),
      },
    })
  })

  it('tries every form of the creator and voter jids: LID/LID, LID/PN, PN/LID', () => {
    for (const jids of [
      { creatorJid: OWN.lidJid, voterJid: ANA_LID },
      { creatorJid: OWN.lidJid, voterJid: ANA },
      { creatorJid: OWN.pnJid, voterJid: ANA_LID },
    ]) {
      const outcome = toPollVote(vote(['Green'], jids), OWN, payloads)
      expect(outcome && 'vote' in outcome && outcome.vote.selectedOptions).toEqual(['Green'])
    }
  })

  it('takes a group member’s vote under their participant jid', () => {
    const group = vote(
      ['Red'],
      { creatorJid: OWN.lidJid, voterJid: ANA_LID },
      { remoteJid: '1203630001@g.us', remoteJidAlt: undefined, participant: ANA_LID, participantAlt: ANA },
    )
    const outcome = toPollVote(group, OWN, payloads)
    expect(outcome).toMatchObject({
      vote: { chatJid: '1203630001@g.us', voterPhone: '15551230001', voterLid: '700001' },
    })
    expect(outcome && 'vote' in outcome && outcome.vote.phone).toBeUndefined()
  })

  it('says why a vote is not one it can count', () => {
    const jids = { creatorJid: OWN.pnJid, voterJid: ANA }
    const skipped = (message: WAMessage, lookup = payloads) => {
      const outcome = toPollVote(message, OWN, lookup)
      return outcome && 'skipped' in outcome ? outcome.skipped : outcome
    }
    const notOurs = vote(['Red'], jids)
    notOurs.message!.pollUpdateMessage!.pollCreationMessageKey!.fromMe = false
    expect(skipped(notOurs)).toMatch(/did not create/)
    expect(skipped(vote(['Red'], jids), () => undefined)).toMatch(/no poll this session has/)
    expect(skipped(vote(['Red'], { creatorJid: OWN.pnJid, voterJid: '15559999999@s.whatsapp.net' }))).toMatch(
      /does not decrypt/,
    )
    expect(skipped(vote(['Purple'], jids))).toMatch(/option the poll does not have/)
    const singleChoice = () => storedPoll(['Red', 'Green', 'Blue'], 1)
    expect(skipped(vote(['Red', 'Blue'], jids), singleChoice)).toMatch(/2 options where 1 may be picked/)
    const huge = vote(['Red'], jids)
    huge.message!.pollUpdateMessage!.vote!.encPayload = new Uint8Array(4096)
    expect(skipped(huge)).toMatch(/well-formed/)
    const badIv = vote(['Red'], jids)
    badIv.message!.pollUpdateMessage!.vote!.encIv = new Uint8Array(5)
    expect(skipped(badIv)).toMatch(/well-formed/)
    const shortSecret = () =>
      proto.Message.encode({
        pollCreationMessageV3: { name: 'x', options: [{ optionName: 'Red' }] },
        messageContextInfo: { messageSecret: new Uint8Array(8) },
      }).finish()
    expect(skipped(vote(['Red'], jids), shortSecret)).toMatch(/no poll this session has/)
    // Not a vote at all, or a status: null.
    expect(toPollVote(upsert({}, { conversation: 'hi' }), OWN, payloads)).toBeNull()
    expect(toPollVote(vote(['Red'], jids, { remoteJid: 'status@broadcast' }), OWN, payloads)).toBeNull()
  })

  it('takes a vote taken back (no options), and the account’s own vote under its own jids', () => {
    const none = toPollVote(vote([], { creatorJid: OWN.pnJid, voterJid: ANA }), OWN, payloads)
    expect(none && 'vote' in none && none.vote.selectedOptions).toEqual([])
    const mine = toPollVote(
      vote(['Red'], { creatorJid: OWN.pnJid, voterJid: OWN.lidJid }, { fromMe: true }),
      OWN,
      payloads,
    )
    expect(mine).toMatchObject({ vote: { fromMe: true, voterPhone: '15550000001', voterLid: '900001' } })
  })
})

describe('toReaction', () => {
  const reaction = (
    text: string,
    key: Partial<WAMessage['key']> = {},
    target: proto.IMessageKey = { id: 'T1', fromMe: true },
  ) => upsert({ id: 'R1', ...key }, { reactionMessage: { key: target, text, senderTimestampMs: 1_795_000_000_456 } })

  it('maps who reacted, with which emoji, to which message', () => {
    expect(toReaction(reaction('👍'), OWN)).toEqual({
      id: 'R1',
      chatJid: ANA,
      phone: '15551230001',
      lid: '700001',
      fromMe: false,
      reactorPhone: '15551230001',
      reactorLid: '700001',
      targetId: 'T1',
      targetFromMe: true,
      emoji: '👍',
      timestamp: new Date(1_795_000_000_456),
    })
  })

  it('reads a removal as an empty emoji, the account’s own reaction under its jids, and a group member’s', () => {
    expect(toReaction(reaction(''), OWN)).toMatchObject({ emoji: '' })
    expect(toReaction(reaction('🔥', { fromMe: true }), OWN)).toMatchObject({
      fromMe: true,
      reactorPhone: '15550000001',
      reactorLid: '900001',
    })
    expect(
      toReaction(reaction('🔥', { remoteJid: '1203630001@g.us', remoteJidAlt: undefined, participant: ANA_LID }), OWN),
    ).toMatchObject({ chatJid: '1203630001@g.us', reactorLid: '700001' })
  })

  it('ignores what is no reaction: other messages, no target, far too long an "emoji", statuses', () => {
    expect(toReaction(upsert({}, { conversation: 'hi' }), OWN)).toBeNull()
    expect(toReaction(reaction('👍', {}, { fromMe: true }), OWN)).toBeNull()
    expect(toReaction(reaction('x'.repeat(65)), OWN)).toBeNull()
    expect(toReaction(reaction('👍', { remoteJid: 'status@broadcast' }), OWN)).toBeNull()
  })
})

describe('toOwnMessage', () => {
  it('maps what the account sent from elsewhere, with the recipient’s forms', () => {
    const mapped = toOwnMessage(
      upsert({ fromMe: true, remoteJid: ANA_LID, remoteJidAlt: ANA }, { conversation: 'mine' }),
    )
    expect(mapped).toMatchObject({ id: 'M1', chatJid: ANA_LID, phone: '15551230001', lid: '700001', type: 'text' })
    expect(proto.Message.decode(mapped!.payload).conversation).toBe('mine')
    const poll = toOwnMessage(upsert({ fromMe: true }, proto.Message.decode(storedPoll(['A', 'B'], 2))))
    expect(poll).toMatchObject({
      type: 'poll',
      content: { question: 'Colour?', options: ['A', 'B'], selectableCount: 2 },
    })
  })

  it('leaves others’ messages, reactions, votes and protocol plumbing alone', () => {
    expect(toOwnMessage(upsert({}, { conversation: 'theirs' }))).toBeNull()
    expect(toOwnMessage(upsert({ fromMe: true }, { reactionMessage: { key: { id: 'X' }, text: '👍' } }))).toBeNull()
    expect(toOwnMessage(upsert({ fromMe: true }, { pollUpdateMessage: {} }))).toBeNull()
    expect(
      toOwnMessage(upsert({ fromMe: true }, { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE } })),
    ).toBeNull()
  })
})

describe('toSendPlan for polls and reactions', () => {
  it('a poll: Baileys content with the poll-creation stanza node', () => {
    expect(toSendPlan({ kind: 'poll', question: 'Q', options: ['a', 'b'], selectableCount: 2 })).toEqual({
      via: 'content',
      content: { poll: { name: 'Q', values: ['a', 'b'], selectableCount: 2 } },
      additionalNodes: [{ tag: 'meta', attrs: { polltype: 'creation' } }],
    })
  })

  it('a reaction: the target key, with the author in groups', () => {
    expect(
      toSendPlan({
        kind: 'reaction',
        target: { id: 'T', chatJid: '1203630001@g.us', fromMe: false, participant: ANA_LID },
        emoji: '👍',
      }),
    ).toEqual({
      via: 'content',
      content: {
        react: { key: { remoteJid: '1203630001@g.us', id: 'T', fromMe: false, participant: ANA_LID }, text: '👍' },
      },
    })
  })
})
