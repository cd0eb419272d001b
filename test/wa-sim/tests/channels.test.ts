import { type BinaryNode, getBinaryNodeChild, S_WHATSAPP_NET, type WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const OWNER = '15553110001'
const READER = '15553110002'

/**
 * Channels (newsletters) with a real Baileys client: its own newsletter helpers (w:mex
 * metadata, follow, unfollow; newsletterFetchMessages) are answered as WhatsApp answers them,
 * a post reaches each live follower as <message from="…@newsletter"><plaintext>, and a send
 * is taken from the owner only, as one plaintext proto; the rest is refused and recorded.
 */
describe('channels with a real Baileys client', () => {
  let sim: WhatsAppSimulator
  let owner: WASocket
  let reader: WASocket
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    owner = (await pairByQr(sim, OWNER)).sock
    reader = (await pairByQr(sim, READER)).sock
  })
  afterAll(async () => {
    closeSocket(owner)
    closeSocket(reader)
    await sim.stop()
  })

  it('answers metadata by jid and by invite code, with the asker’s role', async () => {
    const channel = sim.createChannel({ name: 'Bulletin', description: 'Weekly', owner: OWNER })
    const byJid = (await owner.newsletterMetadata('jid', channel.jid)) as any
    expect(byJid).toMatchObject({
      id: channel.jid,
      thread_metadata: { name: { text: 'Bulletin' }, description: { text: 'Weekly' }, subscribers_count: '1' },
      viewer_metadata: { role: 'OWNER' },
    })
    const byInvite = (await reader.newsletterMetadata('invite', channel.info().inviteCode)) as any
    expect(byInvite).toMatchObject({ id: channel.jid, viewer_metadata: { role: 'GUEST' } })
    await expect(reader.newsletterMetadata('jid', '120363000000000009@newsletter')).rejects.toThrow(/not found/i)
    expect(sim.violations()).toEqual([])
  })

  it('follows and unfollows; followers get posts live and read them back; the owner cannot leave', async () => {
    const channel = sim.createChannel({ name: 'Live', owner: OWNER })
    await reader.newsletterFollow(channel.jid)
    expect(channel.roleOf(READER)).toBe('SUBSCRIBER')
    const arrived = new Promise<any>((resolve) =>
      reader.ev.on('messages.upsert', ({ messages }) => {
        const post = messages.find((m) => m.key.remoteJid === channel.jid)
        if (post) resolve(post)
      }),
    )
    const serverId = channel.post({ text: 'first post' })
    const post = await arrived
    expect(post.message.conversation).toBe('first post')
    expect(post.key.server_id).toBe(String(serverId))
    const fetched = await reader.newsletterFetchMessages(channel.jid, 10, undefined as never, undefined as never)
    const messages = getBinaryNodeChild(getBinaryNodeChild(fetched, 'message_updates'), 'messages')
    expect(((messages?.content ?? []) as BinaryNode[]).map((m) => m.attrs.server_id)).toEqual([String(serverId)])
    await reader.newsletterUnfollow(channel.jid)
    expect(channel.roleOf(READER)).toBe('GUEST')
    await expect(owner.newsletterUnfollow(channel.jid)).rejects.toThrow(/owner/i)
    await expect(reader.newsletterFollow('120363000000000009@newsletter')).rejects.toThrow(/not found/i)
    expect(sim.violations()).toEqual([])
  })

  it('takes the owner’s plaintext post and relays it to followers; refuses anyone else’s', async () => {
    const channel = sim.createChannel({ name: 'Shop', owner: OWNER, followers: [READER] })
    const arrived = new Promise<any>((resolve) =>
      reader.ev.on('messages.upsert', ({ messages }) => {
        const post = messages.find((m) => m.key.remoteJid === channel.jid)
        if (post) resolve(post)
      }),
    )
    const sent = await owner.sendMessage(channel.jid, { text: 'sale today' })
    expect((await arrived).message.extendedTextMessage?.text ?? (await arrived).message.conversation).toBe('sale today')
    expect(channel.info().posts).toMatchObject([{ id: sent!.key.id, sentBy: OWNER }])
    expect(sim.violations()).toEqual([])

    await reader.sendMessage(channel.jid, { text: 'not mine to post' })
    await expect
      .poll(() => sim.violations().map((v) => v.detail))
      .toEqual([expect.stringMatching(/neither owns nor admins/)])
    expect(channel.info().posts).toHaveLength(1)
  })

  it('refuses malformed and unknown w:mex queries as WhatsApp does (400), recording them', async () => {
    const before = sim.violations().length
    const mex = (queryId: string, content: Buffer) =>
      owner.query({
        tag: 'iq',
        attrs: { type: 'get', to: S_WHATSAPP_NET, xmlns: 'w:mex' },
        content: [{ tag: 'query', attrs: { query_id: queryId }, content }],
      })
    await expect(mex('1', Buffer.from('{"variables":{}}'))).rejects.toThrow(/bad-request/)
    await expect(mex('6563316087068696', Buffer.from('not json'))).rejects.toThrow(/bad-request/)
    await expect(mex('24404358912487870', Buffer.from('{"variables":{"newsletter_id":"x"}}'))).rejects.toThrow(
      /bad-request/,
    )
    expect(
      sim
        .violations()
        .slice(before)
        .map((v) => v.kind),
    ).toEqual(['malformed-node', 'malformed-node', 'malformed-node'])
  })
})
