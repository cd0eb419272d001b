/**
 * #36's channel routes on the Cloudflare Workers deployment under local `wrangler dev`: the list,
 * a follow whose posts arrive as channel.message events, the latest posts, and a post to the
 * account's own channel (plaintext, recorded), each served by the session's object with the real
 * Baileys against the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEdgeRig, type EdgeRig } from './edge-rig'

const PHONE = '15550170004'

let rig: EdgeRig
let sessionId: string
let secret: string

beforeAll(async () => {
  rig = await startEdgeRig([])
  ;({ sessionId, webhookSecret: secret } = await rig.linkSession('edge channels', PHONE))
}, 180_000)

afterAll(() => rig?.close(), 60_000)

describe('edge: channels in the session object', () => {
  it('follows a channel, lists it, reads its posts and delivers new ones as channel.message', async () => {
    const news = rig.sim.createChannel({ name: 'Edge News' })
    news.post({ text: 'earlier' })
    const followed = await rig.api('POST', `/v1/channel/${news.jid}/follow`, { sessionId })
    expect(followed.status, JSON.stringify(followed.body)).toBe(200)
    const list = await rig.api('GET', `/v1/channel/all?sessionId=${sessionId}`)
    expect(list.status, JSON.stringify(list.body)).toBe(200)
    expect(list.body.channels).toMatchObject([{ id: news.jid, name: 'Edge News', role: 'follower' }])
    const posts = await rig.api('GET', `/v1/channel/${news.jid}/messages?sessionId=${sessionId}&limit=5`)
    expect(posts.body.messages.map((m: any) => m.content.text)).toEqual(['earlier'])
    news.post({ text: 'live on the edge' })
    await rig.receiver.waitFor('edge', secret, (all) =>
      all.some((e) => e.type === 'channel.message' && e.data.content.text === 'live on the edge'),
    )
  }, 60_000)

  it('posts to the account’s own channel and refuses one it only follows', async () => {
    const own = rig.sim.createChannel({ name: 'Edge Shop', owner: PHONE })
    const sent = await rig.api('POST', '/v1/message/text', { sessionId, phone: own.jid, message: 'from the edge' })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    await expect.poll(() => own.info().posts.map((p) => p.id)).toEqual([sent.body.messageId])
    const other = rig.sim.createChannel({ name: 'Not mine', followers: [PHONE] })
    const refused = await rig.api('POST', '/v1/message/text', { sessionId, phone: other.jid, message: 'no' })
    expect([refused.status, refused.body.error]).toEqual([403, 'forbidden'])
    expect(rig.sim.violations()).toEqual([])
  }, 60_000)
})
