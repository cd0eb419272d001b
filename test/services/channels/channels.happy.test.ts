import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelHandle } from '../../wa-sim/channel-handle'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const ACCOUNT = '15550046001'

/**
 * Channels end to end: the real Baileys client's w:mex queries and newsletter iqs against the
 * simulator's channels, through HTTP; posts of a followed channel reach a real webhook receiver
 * as channel.message events, and nothing of someone else's channel arrives before following it.
 */
describe('WhatsApp Channels: list, info, follow, posts', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  let news: ChannelHandle
  let own: ChannelHandle
  let quiet: ChannelHandle

  const channelEvents = () => receiver.events('main', secret).filter((e) => e.type === 'channel.message')

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'main', webhookUrl: receiver.url('main') },
    }))
    news = t.sim.createChannel({ name: 'Daily News', description: 'Headlines', followers: [ACCOUNT] })
    own = t.sim.createChannel({ name: 'Our Shop', owner: ACCOUNT })
    quiet = t.sim.createChannel({ name: 'Quiet Corner' })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('lists the channels the account follows and owns, with its role in each', async () => {
    const { status, body } = await t.get(`/v1/channel/all?sessionId=${sessionId}`)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.sessionId).toBe(sessionId)
    const byId = Object.fromEntries(body.channels.map((c: any) => [c.id, c]))
    expect(Object.keys(byId).sort()).toEqual([news.jid, own.jid].sort())
    expect(byId[news.jid]).toEqual({
      id: news.jid,
      name: 'Daily News',
      description: 'Headlines',
      link: news.link,
      subscribers: 1,
      verified: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      role: 'follower',
      muted: false,
    })
    expect(byId[own.jid]).toMatchObject({ name: 'Our Shop', description: null, role: 'owner' })
  })

  it('tells a channel by id (with or without @newsletter) and by link (or its code)', async () => {
    const digits = quiet.jid.split('@')[0]!
    for (const query of [
      `id=${encodeURIComponent(quiet.jid)}`,
      `id=${digits}`,
      `link=${encodeURIComponent(quiet.link)}`,
    ]) {
      const { status, body } = await t.get(`/v1/channel/info?sessionId=${sessionId}&${query}`)
      expect(status, `${query}: ${JSON.stringify(body)}`).toBe(200)
      expect(body.channel).toMatchObject({ id: quiet.jid, name: 'Quiet Corner', role: 'guest', link: quiet.link })
    }
    const code = quiet.info().inviteCode
    const { body } = await t.get(`/v1/channel/info?sessionId=${sessionId}&link=${code}`)
    expect(body.channel.id).toBe(quiet.jid)
  })

  it('follows a channel: WhatsApp counts the account, its posts arrive as channel.message events', async () => {
    quiet.post({ text: 'before following' })
    const { status, body } = await t.post(`/v1/channel/${encodeURIComponent(quiet.jid)}/follow`, { sessionId })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({ sessionId, channelId: quiet.jid, following: true })
    expect(quiet.roleOf(ACCOUNT)).toBe('SUBSCRIBER')
    // Following twice answers the same.
    expect((await t.post(`/v1/channel/${quiet.jid}/follow`, { sessionId })).status).toBe(200)

    const serverId = quiet.post({ text: 'hello followers' })
    await receiver.waitFor('main', secret, () => channelEvents().some((e) => e.data.channelId === quiet.jid))
    const events = channelEvents().filter((e) => e.data.channelId === quiet.jid)
    expect(events.map((e) => e.data)).toEqual([
      {
        channelId: quiet.jid,
        serverId,
        messageId: quiet.info().posts.at(-1)!.id,
        type: 'text',
        content: { text: 'hello followers' },
        postedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ])
    // Not stored as a chat message: no record under the post's id.
    expect((await t.get(`/v1/message/${events[0]!.data.messageId}?sessionId=${sessionId}`)).status).toBe(404)
  })

  it('reads a channel’s latest posts, oldest first, bounded by limit', async () => {
    for (const text of ['one', 'two', 'three']) news.post({ text })
    const all = await t.get(`/v1/channel/${news.jid}/messages?sessionId=${sessionId}`)
    expect(all.status, JSON.stringify(all.body)).toBe(200)
    expect(all.body.messages.map((m: any) => m.content.text)).toEqual(['one', 'two', 'three'])
    expect(all.body.messages[0]).toEqual({
      serverId: news.info().posts[0]!.serverId,
      messageId: news.info().posts[0]!.id,
      type: 'text',
      content: { text: 'one' },
      postedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    const two = await t.get(`/v1/channel/${news.jid}/messages?sessionId=${sessionId}&limit=2`)
    expect(two.body.messages.map((m: any) => m.content.text)).toEqual(['two', 'three'])
    // A channel the account does not follow can be read too, as WhatsApp shows a preview.
    const guest = t.sim.createChannel({ name: 'Elsewhere' })
    guest.post({ text: 'public' })
    const read = await t.get(`/v1/channel/${guest.jid}/messages?sessionId=${sessionId}&limit=100`)
    expect(read.body.messages.map((m: any) => m.content.text)).toEqual(['public'])
  })

  it('tells a followed channel’s new name and description as channel.updated, only what changed', async () => {
    news.update({ name: 'Daily News+' })
    news.update({ description: 'Headlines, twice a day' })
    const updates = await receiver.waitFor('main', secret, (all) =>
      all.some((e) => e.type === 'channel.updated' && e.data.description !== undefined),
    )
    expect(updates.filter((e) => e.type === 'channel.updated').map((e) => e.data)).toEqual([
      { channelId: news.jid, name: 'Daily News+' },
      { channelId: news.jid, description: 'Headlines, twice a day' },
    ])
    const info = await t.get(`/v1/channel/info?sessionId=${sessionId}&id=${news.jid}`)
    expect(info.body.channel).toMatchObject({ name: 'Daily News+', description: 'Headlines, twice a day' })
  })

  it('unfollows: WhatsApp forgets the account, later posts no longer arrive', async () => {
    const { status, body } = await t.post(`/v1/channel/${quiet.jid}/unfollow`, { sessionId })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({ sessionId, channelId: quiet.jid, following: false })
    expect(quiet.roleOf(ACCOUNT)).toBe('GUEST')
    quiet.post({ text: 'after leaving' })
    // Posted after it, to the same connection: once this one is in, the other would be too.
    news.post({ text: 'still following this one' })
    await receiver.waitFor('main', secret, () =>
      channelEvents().some((e) => e.data.content.text === 'still following this one'),
    )
    expect(
      channelEvents()
        .filter((e) => e.data.channelId === quiet.jid)
        .map((e) => e.data.content.text),
    ).toEqual(['hello followers'])
    const list = await t.get(`/v1/channel/all?sessionId=${sessionId}`)
    expect(list.body.channels.map((c: any) => c.id).sort()).toEqual([news.jid, own.jid].sort())
    expect(t.sim.violations()).toEqual([])
  })
})
