import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../../../support/webhook-receiver'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550016101'
const ANA = '15551236101'
const BEN = '15551236102'

/**
 * POST /v1/message/reaction through Baileys to the simulator (which checks each reaction names a
 * message of its chat), and the reactions contacts send: kept per person in the reacted record's
 * content.reactions and announced as message.reaction events.
 */
describe('reactions', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  let anaLid: string

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    anaLid = t.sim.addContact(ANA).lid
    t.sim.addContact(BEN)
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'reactions', webhookUrl: receiver.url('reactions') },
    }))
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const react = (body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.post('/v1/message/reaction', { sessionId, ...body }, { headers })
  const fromAna = async (text: string, options: { group?: string } = {}) => {
    const id = await t.sim.contact(ANA).send({ text }, { to: ACCOUNT, ...options })
    await t.waitForRecord(sessionId, id, (r) => r?.status === 'received')
    return id
  }
  const reactionEvents = (messageId: string) =>
    receiver.events('reactions', secret).filter((e) => e.type === 'message.reaction' && e.data.messageId === messageId)
  const waitForReactionEvents = (messageId: string, count: number) =>
    receiver.waitFor(
      'reactions',
      secret,
      (list: WebhookEvent[]) =>
        list.filter((e) => e.type === 'message.reaction' && e.data.messageId === messageId).length >= count,
    )
  /** Waits until the contact received exactly these reactions to a message, oldest first. */
  const receivedReactions = (phone: string, messageId: string, emoji: string[]) =>
    pollUntil(
      () => reactionsReceived(phone, messageId),
      (got) => JSON.stringify(got) === JSON.stringify(emoji),
      { what: `${phone} to receive reactions ${emoji.join(' ')}` },
    )
  /** Every reaction the contact received for a message, oldest first. */
  const reactionsReceived = (phone: string, messageId: string) =>
    t.sim
      .contact(phone)
      .inbox()
      .filter((m) => m.message.reactionMessage?.key?.id === messageId)
      .map((m) => m.message.reactionMessage!.text)

  it('reacts to the contact’s message: the contact sees it on its own message, the record keeps it', async () => {
    const theirs = await fromAna('hello there')
    const answer = await react({ phone: ANA, messageId: theirs, emoji: '👍' })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body).toMatchObject({ messageId: theirs, direction: 'inbound', content: { text: 'hello there' } })
    expect(answer.body.content.reactions).toEqual([{ from: ACCOUNT, emoji: '👍', reactedAt: expect.any(String) }])
    await receivedReactions(ANA, theirs, ['👍'])
    const seen = t.sim
      .contact(ANA)
      .inbox()
      .find((m) => m.message.reactionMessage?.key?.id === theirs)!
    expect(seen.stanza.type).toBe('reaction')
    // The key as the account sent it: not the account's own message.
    expect(seen.message.reactionMessage!.key).toMatchObject({ id: theirs, fromMe: false })

    // Another emoji replaces it; "" removes it.
    const changed = await react({ phone: ANA, messageId: theirs, emoji: '❤️' })
    expect(changed.body.content.reactions).toEqual([{ from: ACCOUNT, emoji: '❤️', reactedAt: expect.any(String) }])
    const removed = await react({ phone: ANA, messageId: theirs, emoji: '' })
    expect(removed.status).toBe(200)
    expect(removed.body.content.reactions).toBeUndefined()
    await receivedReactions(ANA, theirs, ['👍', '❤️', ''])

    await waitForReactionEvents(theirs, 3)
    expect(reactionEvents(theirs).map((e) => [e.data.emoji, e.data.removed, e.data.fromMe])).toEqual([
      ['👍', false, true],
      ['❤️', false, true],
      ['', true, true],
    ])
    expect(t.sim.violations()).toEqual([])
  })

  it('reacts to its own message, by the chat’s LID too, and to a member’s message in a group', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: ANA, message: 'mine' })
    await t.sim.contact(ANA).waitForMessage((m) => m.id === sent.body.messageId)
    const answer = await react({ phone: `${anaLid}@lid`, messageId: sent.body.messageId, emoji: '🎉' })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body).toMatchObject({
      direction: 'outbound',
      content: { text: 'mine', reactions: [{ from: ACCOUNT, emoji: '🎉' }] },
    })
    await receivedReactions(ANA, sent.body.messageId, ['🎉'])
    const seen = t.sim
      .contact(ANA)
      .inbox()
      .find((m) => m.message.reactionMessage?.key?.id === sent.body.messageId)
    // The key as the account sent it: its own message.
    expect(seen!.message.reactionMessage!.key).toMatchObject({ id: sent.body.messageId, fromMe: true })

    const group = t.sim.createGroup('Club', [ACCOUNT, ANA, BEN])
    const inGroup = await fromAna('group hello', { group: group.jid })
    const inGroupAnswer = await react({ phone: group.jid, messageId: inGroup, emoji: '🔥' })
    expect(inGroupAnswer.status, JSON.stringify(inGroupAnswer.body)).toBe(200)
    expect(inGroupAnswer.body.content.reactions).toEqual([
      { from: ACCOUNT, emoji: '🔥', reactedAt: expect.any(String) },
    ])
    // Every member sees it, naming Ana's message (the simulator checks the key's participant).
    await receivedReactions(BEN, inGroup, ['🔥'])
    expect(t.sim.violations()).toEqual([])
  })

  it('keeps the reactions contacts send, one per person, and drops a removed one', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: ANA, message: 'react to this' })
    const id = sent.body.messageId as string
    await t.sim.contact(ANA).waitForMessage((m) => m.id === id)
    await t.sim.contact(ANA).send({ react: { messageId: id, emoji: '😂' } })
    await t.waitForRecord(sessionId, id, (r) => r.content.reactions?.[0]?.emoji === '😂')
    // From her LID: the same person, so it replaces her first reaction.
    await t.sim.contact(ANA).send({ react: { messageId: id, emoji: '😮' } }, { fromLid: true })
    const replaced = await t.waitForRecord(sessionId, id, (r) => r.content.reactions?.[0]?.emoji === '😮')
    expect(replaced.content.reactions).toEqual([{ from: ANA, emoji: '😮', reactedAt: expect.any(String) }])
    await t.sim.contact(ANA).send({ react: { messageId: id, emoji: '' } })
    const cleared = await t.waitForRecord(sessionId, id, (r) => r.content.reactions === undefined)
    expect(cleared.content).toEqual({ text: 'react to this' })

    await waitForReactionEvents(id, 3)
    const events = reactionEvents(id)
    expect(events.map((e) => [e.data.emoji, e.data.removed, e.data.recorded])).toEqual([
      ['😂', false, true],
      ['😮', false, true],
      ['', true, true],
    ])
    expect(events[0]!.data).toMatchObject({
      phone: ANA,
      from: ANA,
      fromPhone: ANA,
      fromLid: `${anaLid}@lid`,
      fromMe: false,
    })
  })

  it('reports a reaction to a message it has no record of, changing no record', async () => {
    await t.sim.contact(ANA).send({ react: { messageId: 'NEVERRECORDED', emoji: '👀', forged: true } })
    await waitForReactionEvents('NEVERRECORDED', 1)
    const [event] = reactionEvents('NEVERRECORDED')
    expect(event!.data).toMatchObject({ emoji: '👀', recorded: false, from: ANA, phone: ANA })
    expect((await t.get(`/v1/message/NEVERRECORDED?sessionId=${sessionId}`)).status).toBe(404)
  })

  it('the phone’s own reaction is kept under the account’s number', async () => {
    const theirs = await fromAna('phone reacts')
    await t.sim.account(ACCOUNT).sendFromPhone(ANA, { react: { messageId: theirs, emoji: '🙏' } })
    const record = await t.waitForRecord(sessionId, theirs, (r) => r.content.reactions?.length === 1)
    expect(record.content.reactions).toEqual([{ from: ACCOUNT, emoji: '🙏', reactedAt: expect.any(String) }])
    await waitForReactionEvents(theirs, 1)
    const [event] = reactionEvents(theirs)
    expect(event!.data).toMatchObject({ fromMe: true, from: ACCOUNT, recorded: true })
  })

  it('sends a reaction once per Idempotency-Key, also when retried at once', async () => {
    const theirs = await fromAna('idempotent')
    const headers = { 'idempotency-key': `react-${theirs}` }
    const body = { phone: ANA, messageId: theirs, emoji: '✅' }
    const answers = await Promise.all([react(body, headers), react(body, headers)])
    const again = await react(body, headers)
    for (const answer of [...answers, again]) {
      expect(answer.status).toBe(200)
      expect(answer.body).toMatchObject({ messageId: theirs, content: { reactions: [{ from: ACCOUNT, emoji: '✅' }] } })
    }
    await receivedReactions(ANA, theirs, ['✅'])
    const reused = await react({ ...body, emoji: '❌' }, headers)
    expect(reused.status).toBe(409)
    expect(reused.body.error).toBe('idempotency_key_reused')
    await sleep(100)
    expect(reactionsReceived(ANA, theirs)).toEqual(['✅'])
  })
})
