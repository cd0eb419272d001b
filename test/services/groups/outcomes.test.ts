import { describe, expect, it } from 'vitest'
import { participantStatus, resultsAsSent } from '../../../src/services/groups/outcomes'
import { isSelf, ownRole } from '../../../src/services/groups/self'

describe('participantStatus (WhatsApp’s code in words)', () => {
  it('names each code WhatsApp gives, per action', () => {
    expect(['add', 'remove', 'promote', 'demote'].map((a) => participantStatus(a as any, 200))).toEqual([
      'added',
      'removed',
      'promoted',
      'demoted',
    ])
    expect(participantStatus('add', 403)).toBe('privacy_refused')
    expect(participantStatus('add', 404)).toBe('not_on_whatsapp')
    expect(participantStatus('remove', 404)).toBe('not_participant')
    expect(participantStatus('add', 408)).toBe('recently_left')
    expect(participantStatus('add', 409)).toBe('already_participant')
    expect(participantStatus('promote', 403)).toBe('failed')
    expect(participantStatus('add', 500)).toBe('failed')
  })

  it('answers each phone as sent, in order, duplicates included', () => {
    const results = resultsAsSent(
      [
        { input: '+1 555-000-0001', digits: '15550000001' },
        { input: '15550000001', digits: '15550000001' },
        { input: '15550000002', digits: '15550000002' },
      ],
      [
        { phone: '15550000001', code: 200 },
        { phone: '15550000002', code: 403, invite: { code: 'X1', expiresAt: new Date(0) } },
      ],
      'add',
    )
    expect(results).toEqual([
      { phone: '+1 555-000-0001', status: 'added', code: 200 },
      { phone: '15550000001', status: 'added', code: 200 },
      {
        phone: '15550000002',
        status: 'privacy_refused',
        code: 403,
        invite: { code: 'X1', expiresAt: '1970-01-01T00:00:00.000Z' },
      },
    ])
  })
})

describe('isSelf / ownRole (the account in a group)', () => {
  const session = { number: '15550000001', lid: '101' }
  it('knows the account by phone or by LID, and never by a missing one', () => {
    expect(isSelf(session, { phone: '15550000001' })).toBe(true)
    expect(isSelf(session, { lid: '101' })).toBe(true)
    expect(isSelf(session, { phone: '15550000002', lid: '102' })).toBe(false)
    expect(isSelf({ number: null, lid: null }, {})).toBe(false)
    expect(isSelf(session, undefined)).toBe(false)
    expect(ownRole(session, [{ jid: '101@lid', lid: '101', admin: 'admin' }])).toBe('admin')
    expect(ownRole(session, [{ jid: '102@lid', lid: '102', admin: 'admin' }])).toBeNull()
  })
})
