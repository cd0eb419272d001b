import {
  decryptPollVote,
  getAggregateVotesInPollMessage,
  jidNormalizedUser,
  proto,
  type WAMessage,
  type WASocket,
} from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { encryptVote } from '../poll-crypto'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554600001'
const ANA = '15554600101'
const BEN = '15554600102'

/**
 * Polls, votes and reactions between the real Baileys client and the simulator's contacts, and the
 * account's own phone sending: what each side decrypts, and what the simulator refuses strictly.
 */
describe('polls, votes, reactions and the phone’s own messages (real Baileys)', () => {
  let sim: WhatsAppSimulator
  let sock: WASocket
  const upserts: WAMessage[] = []

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    sim.addContact(ANA)
    sim.addContact(BEN)
    sock = (await pairByQr(sim, ACCOUNT)).sock
    sock.ev.on('messages.upsert', ({ messages }) => upserts.push(...messages))
  })
  afterAll(async () => {
    closeSocket(sock)
    await sim.stop()
  })

  const upserted = async (id: string) => {
    await expect.poll(() => upserts.find((m) => m.key.id === id), { timeout: 5000 }).toBeTruthy()
    return upserts.find((m) => m.key.id === id)!
  }
  const violations = (kind: string) => sim.violations().filter((v) => v.kind === kind)
  const own = () => ({ pn: jidNormalizedUser(sock.user!.id), lid: jidNormalizedUser(sock.user!.lid!) })

  it('a contact decrypts the account’s poll with its secret, and its votes decrypt with Baileys’ own function', async () => {
    const sent = await sock.sendMessage(`${ANA}@s.whatsapp.net`, {
      poll: { name: 'Lunch?', values: ['Pizza', 'Sushi', 'Salad'], selectableCount: 2 },
    })
    const received = await sim.contact(ANA).waitForMessage((m) => m.id === sent!.key.id)
    expect(received.message.pollCreationMessage).toMatchObject({
      name: 'Lunch?',
      selectableOptionsCount: 2,
      options: [{ optionName: 'Pizza' }, { optionName: 'Sushi' }, { optionName: 'Salad' }],
    })
    expect(received.message.messageContextInfo?.messageSecret).toHaveLength(32)
    expect(received.stanza.nodes).toContainEqual({ tag: 'meta', attrs: { polltype: 'creation' } })

    // By number (the chat's addressing), then from the contact's LID: each decrypts with the forms used.
    for (const [fromLid, creator, voter] of [
      [false, own().pn, `${ANA}@s.whatsapp.net`],
      [true, own().lid, `${sim.contact(ANA).lid}@lid`],
    ] as const) {
      const voteId = await sim
        .contact(ANA)
        .send({ vote: { pollId: sent!.key.id!, options: ['Sushi', 'Pizza'] } }, { fromLid })
      const update = (await upserted(voteId)).message!.pollUpdateMessage!
      expect(update.pollCreationMessageKey).toMatchObject({ id: sent!.key.id, fromMe: true })
      const vote = decryptPollVote(update.vote!, {
        pollCreatorJid: creator,
        pollMsgId: sent!.key.id!,
        pollEncKey: sent!.message!.messageContextInfo!.messageSecret!,
        voterJid: voter,
      })
      const tally = getAggregateVotesInPollMessage({
        message: sent!.message!,
        pollUpdates: [{ pollUpdateMessageKey: { remoteJid: voter, id: voteId }, vote }],
      })
      expect(tally.map((o) => [o.name, o.voters.length])).toEqual([
        ['Pizza', 1],
        ['Sushi', 1],
        ['Salad', 0],
      ])
    }
    expect(sim.violations()).toEqual([])
  })

  it('refuses a poll WhatsApp would not show: no <meta polltype>, two options alike, one option', async () => {
    const before = violations('malformed-poll').length
    const secret = { messageContextInfo: { messageSecret: new Uint8Array(32).fill(7) } }
    const poll = (options: string[]) => ({
      name: 'Q',
      options: options.map((optionName) => ({ optionName })),
      selectableOptionsCount: 1,
    })
    await sock.relayMessage(`${ANA}@s.whatsapp.net`, { pollCreationMessageV3: poll(['a', 'b']), ...secret }, {})
    const meta = [{ tag: 'meta', attrs: { polltype: 'creation' } }]
    await sock.relayMessage(
      `${ANA}@s.whatsapp.net`,
      { pollCreationMessageV3: poll(['a', 'a']), ...secret },
      { additionalNodes: meta },
    )
    await sock.relayMessage(
      `${ANA}@s.whatsapp.net`,
      { pollCreationMessageV3: poll(['only']), ...secret },
      { additionalNodes: meta },
    )
    await expect.poll(() => violations('malformed-poll').length - before).toBe(3)
    const details = violations('malformed-poll')
      .slice(before)
      .map((v) => v.detail)
    expect(details[0]).toMatch(/meta polltype/)
    expect(details[1]).toMatch(/two options alike/)
    expect(details[2]).toMatch(/1 options/)
  })

  it('the account reacts to the contact’s message and to its own; a reaction naming no message of the chat is refused', async () => {
    const start = sim.violations().length
    const theirs = await sim.contact(BEN).send({ text: 'hello' })
    const received = await upserted(theirs)
    const mine = await sock.sendMessage(`${BEN}@s.whatsapp.net`, { text: 'mine' })
    const onTheirs = await sock.sendMessage(`${BEN}@s.whatsapp.net`, { react: { key: received.key, text: '👍' } })
    const onMine = await sock.sendMessage(`${BEN}@s.whatsapp.net`, { react: { key: mine!.key, text: '🎉' } })
    const inbox = async (id: string) => (await sim.contact(BEN).waitForMessage((m) => m.id === id)).message
    expect((await inbox(onTheirs!.key.id!)).reactionMessage).toMatchObject({
      text: '👍',
      key: { id: theirs, fromMe: false },
    })
    expect((await inbox(onMine!.key.id!)).reactionMessage).toMatchObject({
      text: '🎉',
      key: { id: mine!.key.id, fromMe: true },
    })
    expect((await sim.contact(BEN).waitForMessage((m) => m.id === onTheirs!.key.id)).stanza.type).toBe('reaction')
    expect(sim.violations().slice(start)).toEqual([])

    await sock.sendMessage(`${BEN}@s.whatsapp.net`, {
      react: { key: { remoteJid: `${BEN}@s.whatsapp.net`, fromMe: true, id: 'NEVERSENT' }, text: '👍' },
    })
    // Ana's message, named in Ben's chat
    const anas = await sim.contact(ANA).send({ text: 'from ana' })
    await upserted(anas)
    await sock.sendMessage(`${BEN}@s.whatsapp.net`, {
      react: { key: { remoteJid: `${BEN}@s.whatsapp.net`, fromMe: false, id: anas }, text: '👍' },
    })
    await expect.poll(() => violations('unknown-message-reference').length).toBe(2)
    expect(violations('unknown-message-reference').map((v) => v.detail)).toEqual([
      expect.stringMatching(/reaction: NEVERSENT is no message the account sent/),
      expect.stringMatching(new RegExp(`reaction: ${anas} is no message ${BEN} sent`)),
    ])
  })

  it('a contact reacts and removes its reaction; the key names the account’s message from the contact’s side', async () => {
    const mine = await sock.sendMessage(`${ANA}@s.whatsapp.net`, { text: 'react to me' })
    await sim.contact(ANA).waitForMessage((m) => m.id === mine!.key.id)
    const set = await upserted(await sim.contact(ANA).send({ react: { messageId: mine!.key.id!, emoji: '❤️' } }))
    // Baileys turns the key to the account's view: the account wrote the reacted message.
    expect(set.message!.reactionMessage).toMatchObject({ text: '❤️', key: { id: mine!.key.id, fromMe: true } })
    const removed = await upserted(await sim.contact(ANA).send({ react: { messageId: mine!.key.id!, emoji: '' } }))
    expect(removed.message!.reactionMessage!.text ?? '').toBe('')
    await expect(sim.contact(ANA).send({ react: { messageId: 'UNSEEN', emoji: '👍' } })).rejects.toThrow(/never saw/)
  })

  it('checks a vote the account casts on a contact’s poll: it must decrypt with that poll’s secret', async () => {
    const pollId = await sim.contact(BEN).send({ poll: { question: 'Today?', options: ['Yes', 'No'] } })
    const poll = await upserted(pollId)
    expect(poll.message!.pollCreationMessageV3).toMatchObject({ name: 'Today?', selectableOptionsCount: 1 })
    const secret = poll.message!.messageContextInfo!.messageSecret!
    const vote = (key: Uint8Array) =>
      sock.relayMessage(
        `${BEN}@s.whatsapp.net`,
        {
          pollUpdateMessage: {
            pollCreationMessageKey: { remoteJid: `${BEN}@s.whatsapp.net`, fromMe: false, id: pollId },
            vote: encryptVote(key, { pollId, creatorJid: `${BEN}@s.whatsapp.net`, voterJid: own().pn }, ['Yes']),
            senderTimestampMs: Date.now(),
          },
        },
        {},
      )
    const before = sim.violations().length
    await vote(secret)
    await vote(new Uint8Array(32).fill(1))
    await expect.poll(() => violations('undecryptable-vote').length).toBe(1)
    expect(sim.violations().slice(before)).toEqual([expect.objectContaining({ kind: 'undecryptable-vote' })])
  })

  it('the account’s phone sends a message: the contact gets it, the linked device a fromMe copy naming the chat', async () => {
    for (const addressing of ['lid', 'pn'] as const) {
      const id = await sim
        .account(ACCOUNT)
        .sendFromPhone(ANA, { text: `from the phone by ${addressing}` }, { addressing })
      const copy = await upserted(id)
      expect(copy.key).toMatchObject({ fromMe: true, id })
      const [pn, lid] = [`${ANA}@s.whatsapp.net`, `${sim.contact(ANA).lid}@lid`]
      expect([copy.key.remoteJid, copy.key.remoteJidAlt]).toEqual(addressing === 'lid' ? [lid, pn] : [pn, lid])
      expect(copy.message?.conversation).toBe(`from the phone by ${addressing}`)
      const received = await sim.contact(ANA).waitForMessage((m) => m.id === id)
      expect(received.message.conversation).toBe(`from the phone by ${addressing}`)
      await expect.poll(() => sim.account(ACCOUNT).unacknowledged()).not.toContain(id)
    }
    const poll = await sim
      .account(ACCOUNT)
      .sendFromPhone(ANA, { poll: { question: 'From the phone?', options: ['A', 'B'] } })
    const copy = await upserted(poll)
    expect(proto.Message.fromObject(copy.message!).messageContextInfo?.messageSecret).toHaveLength(32)
    expect(sim.violations()).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ kind: 'undecryptable-message' })]),
    )
  })
  it('does all of it over the control API too', async () => {
    const api = await ControlApi.start(sim)
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return { status: response.status, json: (await response.json()) as any }
    }
    try {
      const poll = await post(`/contacts/${ANA}/polls`, {
        question: 'Via HTTP?',
        options: ['Yes', 'No'],
        selectableCount: 2,
      })
      expect(poll.status).toBe(200)
      expect((await upserted(poll.json.messageId)).message!.pollCreationMessage).toMatchObject({ name: 'Via HTTP?' })
      const mine = await sock.sendMessage(`${ANA}@s.whatsapp.net`, {
        poll: { name: 'Mine', values: ['a', 'b'], selectableCount: 1 },
      })
      await sim.contact(ANA).waitForMessage((m) => m.id === mine!.key.id)
      const vote = await post(`/contacts/${ANA}/votes`, { pollId: mine!.key.id, options: ['b'] })
      expect((await upserted(vote.json.messageId)).message!.pollUpdateMessage).toBeTruthy()
      const reaction = await post(`/contacts/${ANA}/reactions`, { messageId: mine!.key.id, emoji: '👍' })
      expect((await upserted(reaction.json.messageId)).message!.reactionMessage!.text).toBe('👍')
      const phone = await post(`/accounts/${ACCOUNT}/phone-messages`, { to: ANA, text: 'typed on the phone' })
      expect((await upserted(phone.json.messageId)).key.fromMe).toBe(true)
      expect((await post(`/contacts/${ANA}/votes`, { pollId: 'NOPE', options: ['x'] })).status).toBe(404)
      expect((await post(`/contacts/${ANA}/polls`, { question: 'Q', options: 'a,b' })).status).toBe(400)
    } finally {
      await api.stop()
    }
  })
})
