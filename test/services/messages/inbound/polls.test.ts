import { join } from 'node:path'
import { proto } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../../../support/webhook-receiver'

const ACCOUNT = '15550016001'
const ANA = '15551236001'
const BEN = '15551236002'
const CAL = '15551236003'

/**
 * POST /v1/message/poll through Baileys to the simulator, and the votes contacts cast on it
 * (encrypted with the poll's secret as WhatsApp clients do): decrypted by the gateway, tallied in
 * the record's content.votes and announced as message.poll_vote, before and after a restart.
 */
describe('polls and their votes', () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  const lid: Record<string, string> = {}
  let restarted = false

  const start = (reuse?: SimulatedGateway) =>
    startSimulatedGateway({
      databasePath,
      config: { ...loopbackWebhooks, webhooks: fastWebhooks() },
      ...(reuse ? { reuse: { sim: reuse.sim, control: reuse.control } } : {}),
    })

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await start()
    for (const phone of [ANA, BEN, CAL]) lid[phone] = t.sim.addContact(phone).lid
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'polls', webhookUrl: receiver.url('polls') },
    }))
  }, 60_000)
  afterAll(async () => {
    await t.close()
    // A gateway restarted over the first one's simulator leaves it running: stop it here.
    if (restarted) {
      await t.control.stop()
      await t.sim.stop()
    }
    await receiver.close()
    dir.cleanup()
  })

  const sendPoll = async (body: Record<string, unknown>) => {
    const sent = await t.post('/v1/message/poll', { sessionId, ...body })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    return sent.body
  }
  const tallyOf = (record: any) => Object.fromEntries(record.content.votes.map((o: any) => [o.option, o.voters]))
  const waitForTally = (pollId: string, expected: Record<string, string[]>) =>
    t.waitForRecord(sessionId, pollId, (record) => JSON.stringify(tallyOf(record)) === JSON.stringify(expected))
  const voteEvents = (pollId: string) =>
    receiver.events('polls', secret).filter((e) => e.type === 'message.poll_vote' && e.data.messageId === pollId)
  const waitForVoteEvents = (pollId: string, count: number) =>
    receiver.waitFor(
      'polls',
      secret,
      (list: WebhookEvent[]) =>
        list.filter((e) => e.type === 'message.poll_vote' && e.data.messageId === pollId).length >= count,
    )

  it('sends a poll the contact decrypts, whose record keeps the secret votes need and an empty tally', async () => {
    const record = await sendPoll({
      phone: ANA,
      question: 'Where shall we eat?',
      options: ['Pizza', 'Sushi', 'Salad'],
      selectableCount: 2,
    })
    expect(record).toMatchObject({
      type: 'poll',
      direction: 'outbound',
      source: 'api',
      phone: ANA,
      content: {
        question: 'Where shall we eat?',
        options: ['Pizza', 'Sushi', 'Salad'],
        selectableCount: 2,
        votes: [
          { option: 'Pizza', count: 0, voters: [] },
          { option: 'Sushi', count: 0, voters: [] },
          { option: 'Salad', count: 0, voters: [] },
        ],
      },
    })
    const received = await t.sim.contact(ANA).waitForMessage((m) => m.id === record.messageId)
    expect(received.message.pollCreationMessage).toMatchObject({
      name: 'Where shall we eat?',
      selectableOptionsCount: 2,
      options: [{ optionName: 'Pizza' }, { optionName: 'Sushi' }, { optionName: 'Salad' }],
    })
    expect(received.stanza.nodes).toContainEqual({ tag: 'meta', attrs: { polltype: 'creation' } })
    // The secret the contact got is the one in the record's stored proto: what votes are decrypted with.
    const [row] = queryFile<{ payload: Uint8Array }>(
      databasePath,
      'SELECT payload FROM messages WHERE id = ?',
      record.messageId,
    )
    const stored = proto.Message.decode(row!.payload).messageContextInfo?.messageSecret
    expect(Buffer.from(stored!).toString('hex')).toBe(
      Buffer.from(received.message.messageContextInfo!.messageSecret!).toString('hex'),
    )
    // A single-choice poll goes out as WhatsApp's V3.
    const single = await sendPoll({ phone: ANA, question: 'Coffee?', options: ['Yes', 'No'] })
    const got = await t.sim.contact(ANA).waitForMessage((m) => m.id === single.messageId)
    expect(got.message.pollCreationMessageV3).toMatchObject({ name: 'Coffee?', selectableOptionsCount: 1 })
    expect(t.sim.violations()).toEqual([])
  })

  it('tallies two contacts’ votes, moves a changed vote, drops one taken back; each is a message.poll_vote event', async () => {
    const poll = await sendPoll({ phone: ANA, question: 'Pick', options: ['A', 'B', 'C'], selectableCount: 2 })
    const ben = await sendPoll({ phone: BEN, question: 'Pick', options: ['A', 'B', 'C'], selectableCount: 2 })
    await t.sim.contact(ANA).waitForMessage((m) => m.id === poll.messageId)
    await t.sim.contact(BEN).waitForMessage((m) => m.id === ben.messageId)

    await t.sim.contact(ANA).send({ vote: { pollId: poll.messageId, options: ['A', 'B'] } })
    await waitForTally(poll.messageId, { A: [ANA], B: [ANA], C: [] })
    // Ben, from his LID: the vote is keyed with the LID forms, and he is still named by his number.
    await t.sim.contact(BEN).send({ vote: { pollId: ben.messageId, options: ['C'] } }, { fromLid: true })
    await waitForTally(ben.messageId, { A: [], B: [], C: [BEN] })

    await t.sim.contact(ANA).send({ vote: { pollId: poll.messageId, options: ['C'] } })
    const moved = await waitForTally(poll.messageId, { A: [], B: [], C: [ANA] })
    expect(moved.content.votes).toEqual([
      { option: 'A', count: 0, voters: [] },
      { option: 'B', count: 0, voters: [] },
      { option: 'C', count: 1, voters: [ANA] },
    ])
    await t.sim.contact(ANA).send({ vote: { pollId: poll.messageId, options: [] } })
    await waitForTally(poll.messageId, { A: [], B: [], C: [] })

    await waitForVoteEvents(poll.messageId, 3)
    const events = voteEvents(poll.messageId)
    expect(events.map((e) => e.data.selectedOptions)).toEqual([['A', 'B'], ['C'], []])
    expect(events[0]!.data).toMatchObject({
      messageId: poll.messageId,
      phone: ANA,
      voter: ANA,
      voterPhone: ANA,
      voterLid: `${lid[ANA]}@lid`,
      fromMe: false,
      votes: [
        { option: 'A', count: 1, voters: [ANA] },
        { option: 'B', count: 1, voters: [ANA] },
        { option: 'C', count: 0, voters: [] },
      ],
    })
    expect(events[0]!.data.votedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    // One row per voter: the current vote (an empty one kept, so an older vote cannot return).
    const rows = queryFile<{ voter: string; options: string }>(
      databasePath,
      'SELECT voter, options FROM poll_votes WHERE poll_id = ?',
      poll.messageId,
    )
    expect(rows).toEqual([{ voter: ANA, options: '[]' }])
  })

  it('tallies votes in a group, each member under their own name', async () => {
    const group = t.sim.createGroup('Team', [ACCOUNT, ANA, BEN])
    const poll = await sendPoll({ phone: group.jid, question: 'Release on Friday?', options: ['Yes', 'No'] })
    for (const member of [ANA, BEN]) await t.sim.contact(member).waitForMessage((m) => m.id === poll.messageId)
    await t.sim.contact(ANA).send({ vote: { pollId: poll.messageId, options: ['Yes'] } }, { group: group.jid })
    await t.sim.contact(BEN).send({ vote: { pollId: poll.messageId, options: ['No'] } }, { group: group.jid })
    await waitForTally(poll.messageId, { Yes: [ANA], No: [BEN] })
    expect(t.sim.violations()).toEqual([])
  })

  it('decrypts a vote whose key mixes jid forms (creator by LID, voter by number), as phones have sent', async () => {
    const poll = await sendPoll({ phone: CAL, question: 'Mixed?', options: ['One', 'Two'] })
    await t.sim.contact(CAL).waitForMessage((m) => m.id === poll.messageId)
    await t.sim
      .contact(CAL)
      .send({ vote: { pollId: poll.messageId, options: ['Two'], jids: { creator: 'lid', voter: 'pn' } } })
    await waitForTally(poll.messageId, { One: [], Two: [CAL] })
  })

  it('records nothing for votes it cannot count, and keeps counting the next good one', async () => {
    const poll = await sendPoll({ phone: ANA, question: 'Only one', options: ['X', 'Y', 'Z'] })
    await t.sim.contact(ANA).waitForMessage((m) => m.id === poll.messageId)
    // Ana's own poll: a vote on it is not on a poll this session sent.
    const hers = await t.sim.contact(ANA).send({ poll: { question: 'Hers', options: ['P', 'Q'] } })
    await t.waitForRecord(sessionId, hers, (r) => r?.type === 'poll')
    const bad = [
      { vote: { pollId: hers, options: ['P'] } },
      { vote: { pollId: poll.messageId, options: ['X'], forged: true } }, // not the poll's secret
      { vote: { pollId: 'NOSUCHPOLL', options: ['X'], forged: true } },
      { vote: { pollId: poll.messageId, options: ['X', 'Y'] } }, // two picks on a single-choice poll
      { vote: { pollId: poll.messageId, options: Array.from({ length: 80 }, (_, i) => `o${i}`), forged: true } },
    ]
    for (const content of bad) await t.sim.contact(ANA).send(content)
    await t.sim.contact(ANA).send({ vote: { pollId: poll.messageId, options: ['Z'] } })
    await waitForTally(poll.messageId, { X: [], Y: [], Z: [ANA] })
    await waitForVoteEvents(poll.messageId, 1)
    expect(voteEvents(poll.messageId).map((e) => e.data.selectedOptions)).toEqual([['Z']])
    const herPoll = (await t.get(`/v1/message/${hers}?sessionId=${sessionId}`)).body
    expect(herPoll).toMatchObject({ direction: 'inbound', content: { question: 'Hers', options: ['P', 'Q'] } })
    expect(herPoll.content.votes).toBeUndefined()
    expect(
      receiver.events('polls', secret).filter((e) => e.type === 'message.poll_vote' && e.data.messageId === hers),
    ).toEqual([])
  })

  it('counts votes on a poll the account’s phone created', async () => {
    const pollId = await t.sim
      .account(ACCOUNT)
      .sendFromPhone(BEN, { poll: { question: 'From my phone', options: ['Up', 'Down'] } })
    const record = await t.waitForRecord(sessionId, pollId, (r) => r?.type === 'poll')
    expect(record).toMatchObject({ direction: 'outbound', source: 'phone', content: { question: 'From my phone' } })
    await t.sim.contact(BEN).send({ vote: { pollId, options: ['Up'] } })
    await waitForTally(pollId, { Up: [BEN], Down: [] })
  })

  it('decrypts votes after a gateway restart: the secret lives in the stored record', async () => {
    const poll = await sendPoll({ phone: BEN, question: 'Survives?', options: ['Yes', 'No'] })
    await t.sim.contact(BEN).waitForMessage((m) => m.id === poll.messageId)
    await t.stopGateway()
    // While the gateway is down Ben votes: WhatsApp keeps the vote and relays it at the next login.
    await t.sim.contact(BEN).send({ vote: { pollId: poll.messageId, options: ['No'] } })
    t = await start(t)
    restarted = true
    await t.waitForStatus(sessionId, 'connected')
    await waitForTally(poll.messageId, { Yes: [], No: [BEN] })
    await t.sim.contact(BEN).send({ vote: { pollId: poll.messageId, options: ['Yes'] } })
    await waitForTally(poll.messageId, { Yes: [BEN], No: [] })
    await waitForVoteEvents(poll.messageId, 2)
    expect(voteEvents(poll.messageId).map((e) => e.data.selectedOptions)).toEqual([['No'], ['Yes']])
    expect(t.sim.violations()).toEqual([])
  }, 60_000)
})
