import type { BinaryNode } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { toGroupNotices } from '../../../../src/engine/whatsapp/groups/group-notification'

const GROUP = '120363000000000123@g.us'
const notification = (children: BinaryNode[], attrs: Record<string, string> = {}): BinaryNode => ({
  tag: 'notification',
  attrs: {
    from: GROUP,
    type: 'w:gp2',
    id: 'N1',
    t: '1700000000',
    participant: '111@lid',
    participant_pn: '15550000001@s.whatsapp.net',
    addressing_mode: 'lid',
    ...attrs,
  },
  content: children,
})
const participant = (lid: string, phone: string): BinaryNode => ({
  tag: 'participant',
  attrs: { jid: `${lid}@lid`, phone_number: `${phone}@s.whatsapp.net` },
})
const base = { groupJid: GROUP, author: { phone: '15550000001', lid: '111' }, at: new Date(1_700_000_000_000) }

describe('toGroupNotices (a w:gp2 notification → the changes it reports)', () => {
  it('reads participant changes with who made them, by LID and phone; leave is a remove', () => {
    const notices = toGroupNotices(
      notification([
        { tag: 'add', attrs: { reason: 'invite' }, content: [participant('222', '15550000002')] },
        { tag: 'promote', attrs: {}, content: [participant('222', '15550000002')] },
        { tag: 'leave', attrs: {}, content: [participant('333', '15550000003')] },
      ]),
    )
    expect(notices).toEqual([
      {
        ...base,
        kind: 'participants',
        action: 'add',
        reason: 'invite',
        members: [{ jid: '222@lid', phone: '15550000002', lid: '222', admin: null }],
      },
      {
        ...base,
        kind: 'participants',
        action: 'promote',
        members: [{ jid: '222@lid', phone: '15550000002', lid: '222', admin: null }],
      },
      {
        ...base,
        kind: 'participants',
        action: 'remove',
        members: [{ jid: '333@lid', phone: '15550000003', lid: '333', admin: null }],
      },
    ])
  })

  it('reads subject, description (set and deleted) and settings', () => {
    const notices = toGroupNotices(
      notification([
        { tag: 'subject', attrs: { subject: 'New name', s_t: '1' } },
        {
          tag: 'description',
          attrs: { id: 'D1' },
          content: [{ tag: 'body', attrs: {}, content: Buffer.from('About us') }],
        },
        { tag: 'description', attrs: { id: 'D2' }, content: [{ tag: 'delete', attrs: {} }] },
        { tag: 'announcement', attrs: { v_id: '1' } },
        { tag: 'not_announcement', attrs: { v_id: '2' } },
        { tag: 'locked', attrs: {} },
        { tag: 'unlocked', attrs: {} },
      ]),
    )
    expect(notices.map((n) => (n.kind === 'changed' ? n.change : n.kind))).toEqual([
      { subject: 'New name' },
      { description: 'About us' },
      { description: null },
      { announce: true },
      { announce: false },
      { restrict: true },
      { restrict: false },
    ])
  })

  it('reads a create as the group joined, whole, with its reason', () => {
    const [notice] = toGroupNotices(
      notification([
        {
          tag: 'create',
          attrs: { reason: 'invite' },
          content: [
            {
              tag: 'group',
              attrs: {
                id: '120363000000000123',
                subject: 'Team',
                creation: '1700000000',
                creator: '111@lid',
                creator_pn: '15550000001@s.whatsapp.net',
                addressing_mode: 'lid',
              },
              content: [
                {
                  tag: 'participant',
                  attrs: { jid: '111@lid', phone_number: '15550000001@s.whatsapp.net', type: 'superadmin' },
                },
                participant('222', '15550000002'),
                { tag: 'locked', attrs: {} },
              ],
            },
          ],
        },
      ]),
    )
    expect(notice).toMatchObject({ kind: 'joined', reason: 'invite', groupJid: GROUP })
    expect(notice?.kind === 'joined' && notice.group).toEqual({
      jid: GROUP,
      subject: 'Team',
      owner: { jid: '111@lid', phone: '15550000001', lid: '111' },
      announce: false,
      restrict: true,
      memberAddMode: false,
      addressingMode: 'lid',
      createdAt: new Date(1_700_000_000_000),
      participants: [
        { jid: '111@lid', phone: '15550000001', lid: '111', admin: 'superadmin' },
        { jid: '222@lid', phone: '15550000002', lid: '222', admin: null },
      ],
    })
  })

  it('leaves out what it does not keep, and anything that is not a group notification', () => {
    expect(
      toGroupNotices(
        notification([
          { tag: 'invite', attrs: { code: 'X' } },
          { tag: 'ephemeral', attrs: {} },
        ]),
      ),
    ).toEqual([])
    expect(toGroupNotices(notification([{ tag: 'add', attrs: {}, content: [] }]))).toEqual([])
    expect(toGroupNotices(notification([{ tag: 'subject', attrs: {} }]))).toEqual([])
    expect(
      toGroupNotices(notification([{ tag: 'locked', attrs: {} }], { from: '15550000001@s.whatsapp.net' })),
    ).toEqual([])
    expect(toGroupNotices(notification([{ tag: 'locked', attrs: {} }], { type: 'devices' }))).toEqual([])
  })

  it('names the author by what WhatsApp gave: a PN-addressed group, or none', () => {
    const [pn] = toGroupNotices(
      notification([{ tag: 'locked', attrs: {} }], { participant: '15550000009@s.whatsapp.net', participant_pn: '' }),
    )
    expect(pn?.author).toEqual({ phone: '15550000009' })
    const { participant: _, participant_pn: __, ...anonymous } = notification([]).attrs
    const [none] = toGroupNotices({ tag: 'notification', attrs: anonymous, content: [{ tag: 'locked', attrs: {} }] })
    expect(none).not.toHaveProperty('author')
  })
})
