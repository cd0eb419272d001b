import type { BinaryNode } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { toAbout, toBlockedUsers, toBusinessProfile } from '../../../../src/engine/whatsapp/contacts/contact-profile'

const text = (tag: string, value: string): BinaryNode => ({ tag, attrs: {}, content: Buffer.from(value) })
const answer = (...content: BinaryNode[]): BinaryNode => ({ tag: 'iq', attrs: { type: 'result' }, content })

describe('toBusinessProfile', () => {
  it('reads every field a business filled in, and its hours with minutes after midnight', () => {
    const profile = toBusinessProfile(
      answer({
        tag: 'business_profile',
        attrs: { v: '244' },
        content: [
          {
            tag: 'profile',
            attrs: { jid: '1555@s.whatsapp.net' },
            content: [
              text('description', 'Bikes'),
              text('email', 'a@b.c'),
              { tag: 'categories', attrs: {}, content: [text('category', 'Shop')] },
              {
                tag: 'business_hours',
                attrs: { timezone: 'UTC' },
                content: [
                  {
                    tag: 'business_hours_config',
                    attrs: { day_of_week: 'mon', mode: 'specific_hours', open_time: '540', close_time: '1080' },
                  },
                  { tag: 'business_hours_config', attrs: { day_of_week: 'sun', mode: 'open_24h', open_time: 'x' } },
                ],
              },
            ],
          },
        ],
      }),
    )
    expect(profile).toEqual({
      description: 'Bikes',
      email: 'a@b.c',
      category: 'Shop',
      hours: {
        timezone: 'UTC',
        days: [
          { day: 'mon', mode: 'specific_hours', openMinutes: 540, closeMinutes: 1080 },
          { day: 'sun', mode: 'open_24h' },
        ],
      },
    })
  })

  it('answers undefined for an account that is no business (no <profile>), and {} for an empty profile', () => {
    expect(toBusinessProfile(answer({ tag: 'business_profile', attrs: {} }))).toBeUndefined()
    expect(toBusinessProfile(undefined)).toBeUndefined()
    const empty = answer({
      tag: 'business_profile',
      attrs: {},
      content: [{ tag: 'profile', attrs: {}, content: [text('website', '')] }],
    })
    expect(toBusinessProfile(empty)).toEqual({})
  })
})

describe('toAbout', () => {
  it('keeps a text with its time; hidden (""), none (null) and a zero time are left out', () => {
    const setAt = new Date(1_700_000_000_000)
    expect(toAbout({ status: 'Hi', setAt })).toEqual({ text: 'Hi', setAt })
    expect(toAbout({ status: 'Hi', setAt: new Date(0) })).toEqual({ text: 'Hi' })
    expect(toAbout({ status: '', setAt })).toBeUndefined()
    expect(toAbout({ status: null, setAt })).toBeUndefined()
    expect(toAbout(undefined)).toBeUndefined()
  })
})

describe('toBlockedUsers', () => {
  it('reads LID items with or without their number, and number-only items; skips what names nobody', () => {
    const list = answer({
      tag: 'list',
      attrs: {},
      content: [
        { tag: 'item', attrs: { jid: '111@lid', pn_jid: '1555@s.whatsapp.net' } },
        { tag: 'item', attrs: { jid: '222@lid' } },
        { tag: 'item', attrs: { jid: '1666@s.whatsapp.net' } },
        { tag: 'item', attrs: { jid: '123-456@g.us' } },
        { tag: 'item', attrs: {} },
      ],
    })
    expect(toBlockedUsers(list)).toEqual([{ phone: '1555', lid: '111' }, { lid: '222' }, { phone: '1666' }])
    expect(toBlockedUsers(answer())).toEqual([])
  })
})
