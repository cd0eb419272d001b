import { describe, expect, it } from 'vitest'
import { relayedPresence } from '../../../../src/engine/whatsapp/listeners/presence'
import { RingingCalls } from '../../../../src/engine/whatsapp/listeners/ringing-calls'

/** Pure mapping of relayed presence nodes, and the bounded list of ringing calls. */
describe('relayedPresence', () => {
  const node = (
    tag: string,
    attrs: Record<string, string>,
    child?: { tag: string; attrs?: Record<string, string> },
  ) => ({
    tag,
    attrs,
    ...(child ? { content: [{ tag: child.tag, attrs: child.attrs ?? {} }] } : {}),
  })

  it('reads online, offline with a last seen, and a hidden last seen', () => {
    expect(relayedPresence(node('presence', { from: '1555@s.whatsapp.net' }))).toEqual({
      jid: '1555@s.whatsapp.net',
      state: 'available',
    })
    expect(relayedPresence(node('presence', { from: '99@lid', type: 'unavailable', last: '1700000000' }))).toEqual({
      jid: '99@lid',
      state: 'unavailable',
      lastSeen: new Date(1_700_000_000_000),
    })
    for (const last of ['deny', '', '-5', '1e400', 'x'])
      expect(relayedPresence(node('presence', { from: '99@lid', type: 'unavailable', last }))).toEqual({
        jid: '99@lid',
        state: 'unavailable',
      })
  })

  it('keeps a stopped typing as paused (Baileys reports it as available) and recording apart', () => {
    const from = { from: '1555@s.whatsapp.net' }
    expect(relayedPresence(node('chatstate', from, { tag: 'paused' }))?.state).toBe('paused')
    expect(relayedPresence(node('chatstate', from, { tag: 'composing' }))?.state).toBe('composing')
    expect(relayedPresence(node('chatstate', from, { tag: 'composing', attrs: { media: 'audio' } }))?.state).toBe(
      'recording',
    )
  })

  it('names the group and its typist; leaves out group counts, servers and unknown children', () => {
    expect(
      relayedPresence(node('chatstate', { from: '1-2@g.us', participant: '77@lid' }, { tag: 'composing' })),
    ).toEqual({ jid: '77@lid', group: '1-2@g.us', state: 'composing' })
    expect(relayedPresence(node('chatstate', { from: '1-2@g.us' }, { tag: 'composing' }))).toBeUndefined()
    expect(relayedPresence(node('presence', { from: '1-2@g.us', count: '3' }))).toBeUndefined()
    expect(relayedPresence(node('presence', { from: 's.whatsapp.net' }))).toBeUndefined()
    expect(relayedPresence(node('chatstate', { from: '1555@s.whatsapp.net' }, { tag: 'dancing' }))).toBeUndefined()
    expect(relayedPresence(node('chatstate', { from: '1555@s.whatsapp.net' }))).toBeUndefined()
  })
})

describe('RingingCalls', () => {
  it('knows a call from its offer until it ended', () => {
    const calls = new RingingCalls()
    calls.offered('A', '1555@s.whatsapp.net')
    expect(calls.callerOf('A')).toBe('1555@s.whatsapp.net')
    calls.ended('A')
    expect(calls.callerOf('A')).toBeUndefined()
  })

  it('forgets a call after the ring time, and the oldest beyond 64', () => {
    let now = 0
    const calls = new RingingCalls(() => now)
    calls.offered('old', 'x@s.whatsapp.net')
    now = 3 * 60_000
    expect(calls.callerOf('old')).toBeUndefined()
    for (let i = 0; i < 65; i++) calls.offered(`c${i}`, `${i}@s.whatsapp.net`)
    expect(calls.callerOf('c0')).toBeUndefined()
    expect(calls.callerOf('c1')).toBe('1@s.whatsapp.net')
    expect(calls.callerOf('c64')).toBe('64@s.whatsapp.net')
  })
})
