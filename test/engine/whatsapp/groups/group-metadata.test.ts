import type { BinaryNode } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { participantOutcomes, toBaileysMetadata } from '../../../../src/engine/whatsapp/groups/group-metadata'
import type { GroupInfo } from '../../../../src/engine/whatsapp/port/groups'

const answer = (attrs: Record<string, string>, content?: BinaryNode[]): BinaryNode => ({
  tag: 'participant',
  attrs,
  ...(content ? { content } : {}),
})

describe('participantOutcomes (WhatsApp’s answer per phone asked)', () => {
  it('matches each phone by the jid it was asked as, or by phone_number when answered by LID', () => {
    const outcomes = participantOutcomes(
      ['15550000001', '15550000002', '15550000003', '15550000001'],
      [
        answer({ jid: '15550000001@s.whatsapp.net', lid: '101@lid' }),
        answer({ jid: '102@lid', phone_number: '15550000002@s.whatsapp.net' }),
        answer({ jid: '15550000003@s.whatsapp.net', error: '409' }),
      ],
    )
    expect(outcomes).toEqual([
      {
        phone: '15550000001',
        code: 200,
        member: { jid: '15550000001@s.whatsapp.net', phone: '15550000001', lid: '101', admin: null },
      },
      { phone: '15550000002', code: 200, member: { jid: '102@lid', phone: '15550000002', lid: '102', admin: null } },
      { phone: '15550000003', code: 409 },
    ])
  })

  it('carries the invite a privacy refusal offers, and reports a phone the answer left out as 404', () => {
    const outcomes = participantOutcomes(
      ['15550000004', '15550000005'],
      [
        answer({ jid: '15550000004@s.whatsapp.net', error: '403' }, [
          { tag: 'add_request', attrs: { code: 'AbCd1234', expiration: '1700000000' } },
        ]),
      ],
    )
    expect(outcomes).toEqual([
      { phone: '15550000004', code: 403, invite: { code: 'AbCd1234', expiresAt: new Date(1_700_000_000_000) } },
      { phone: '15550000005', code: 404 },
    ])
  })
})

describe('toBaileysMetadata (the store’s copy as Baileys’ cachedGroupMetadata)', () => {
  const group: GroupInfo = {
    jid: '120363000000000123@g.us',
    subject: 'Team',
    announce: true,
    restrict: false,
    memberAddMode: false,
    addressingMode: 'lid',
    ephemeralSeconds: 86400,
    participants: [
      { jid: '101@lid', phone: '15550000001', lid: '101', admin: 'superadmin' },
      { jid: '15550000002@s.whatsapp.net', phone: '15550000002', lid: '102', admin: null },
    ],
  }

  it('gives every participant as the group addresses it, with the other form beside it', () => {
    const metadata = toBaileysMetadata(group)
    expect(metadata).toMatchObject({
      id: group.jid,
      addressingMode: 'lid',
      ephemeralDuration: 86400,
      size: 2,
      participants: [
        { id: '101@lid', phoneNumber: '15550000001@s.whatsapp.net', admin: 'superadmin' },
        { id: '15550000002@s.whatsapp.net', lid: '102@lid', admin: null },
      ],
    })
    expect(toBaileysMetadata({ ...group, addressingMode: 'pn' }).addressingMode).toBe('pn')
  })
})
