import { describe, expect, it } from 'vitest'
import { toChannelInfo, toChannelPost, toChannelUpdate } from '../../../../src/engine/whatsapp/channels/channel-mappers'

const JID = '120363025246125888@newsletter'

/** WhatsApp's newsletter metadata as w:mex answers it (whatsmeow's and Baileys' reading of it). */
const metadata = (overrides: Record<string, unknown> = {}) => ({
  id: JID,
  state: { type: 'ACTIVE' },
  thread_metadata: {
    creation_time: '1700000000',
    invite: 'AbCdEfGhIjKlMnOpQrSt12',
    name: { id: '1', text: 'News', update_time: '1700000000' },
    description: { id: '1', text: 'Daily', update_time: '1700000000' },
    subscribers_count: '1234',
    verification: 'VERIFIED',
    picture: null,
  },
  viewer_metadata: { mute: 'ON', role: 'ADMIN' },
  ...overrides,
})

describe('toChannelInfo', () => {
  it('reads every field WhatsApp gives', () => {
    expect(toChannelInfo(metadata())).toEqual({
      jid: JID,
      name: 'News',
      description: 'Daily',
      inviteCode: 'AbCdEfGhIjKlMnOpQrSt12',
      subscribers: 1234,
      verified: true,
      createdAt: new Date(1_700_000_000_000),
      role: 'admin',
      muted: true,
    })
  })

  it('maps each role, and a missing or unknown one to guest', () => {
    const role = (value: unknown) => toChannelInfo(metadata({ viewer_metadata: { role: value } }))!.role
    expect(['OWNER', 'ADMIN', 'SUBSCRIBER', 'GUEST', 'SOMETHING_NEW', undefined].map(role)).toEqual([
      'owner',
      'admin',
      'follower',
      'guest',
      'guest',
      'guest',
    ])
    expect(toChannelInfo(metadata({ viewer_metadata: null }))!.role).toBe('guest')
  })

  it('answers null for what names no channel, and nulls for fields missing or malformed', () => {
    for (const raw of [null, undefined, 'x', {}, { id: 42 }, { id: '123@g.us' }, { id: `${JID}x` }])
      expect(toChannelInfo(raw)).toBeNull()
    expect(
      toChannelInfo({
        id: JID,
        thread_metadata: {
          name: { text: 7 },
          description: {},
          invite: '',
          subscribers_count: '-3',
          creation_time: 'soon',
        },
      }),
    ).toEqual({
      jid: JID,
      name: '',
      description: null,
      inviteCode: null,
      subscribers: null,
      verified: false,
      createdAt: null,
      role: 'guest',
      muted: false,
    })
  })
})

describe('toChannelPost', () => {
  it('describes a post as messages are described, with its server id', () => {
    expect(toChannelPost(JID, { id: 'ABC', server_id: '101', t: '1700000000' }, { conversation: 'hi' })).toEqual({
      channelJid: JID,
      serverId: 101,
      id: 'ABC',
      timestamp: new Date(1_700_000_000_000),
      type: 'text',
      content: { text: 'hi' },
    })
    expect(
      toChannelPost(JID, { server_id: '7', t: '1' }, { imageMessage: { caption: 'look', mimetype: 'image/jpeg' } }),
    ).toMatchObject({ id: '7', type: 'image', content: { caption: 'look', mimetype: 'image/jpeg' } })
  })

  it('answers null without a server id or content', () => {
    expect(toChannelPost(JID, { id: 'A', t: '1' }, { conversation: 'x' })).toBeNull()
    expect(toChannelPost(JID, { id: 'A', server_id: 'x' }, { conversation: 'x' })).toBeNull()
    expect(toChannelPost(JID, { id: 'A', server_id: '1' }, null)).toBeNull()
  })
})

describe('toChannelUpdate', () => {
  it('keeps only what changed, bounded as WhatsApp bounds it', () => {
    expect(toChannelUpdate({ id: JID, update: { name: 'New' } })).toEqual({ channelJid: JID, name: 'New' })
    expect(toChannelUpdate({ id: JID, update: { description: 'd'.repeat(5_000) } })).toEqual({
      channelJid: JID,
      description: 'd'.repeat(2_048),
    })
    expect(toChannelUpdate({ id: JID, update: { name: 'n'.repeat(500), description: '' } })).toEqual({
      channelJid: JID,
      name: 'n'.repeat(100),
      description: '',
    })
  })

  it('answers null for no channel or nothing reported', () => {
    for (const event of [
      { id: 'x', update: { name: 'a' } },
      { id: JID, update: {} },
      { id: JID },
      { id: JID, update: { name: 5 } },
    ])
      expect(toChannelUpdate(event)).toBeNull()
  })
})
