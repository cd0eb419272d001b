import { describe, expect, it } from 'vitest'
import { partyName, partyNames } from '../../../../src/services/messages/inbound/party'
import { emptyTally, tallyVotes } from '../../../../src/services/messages/inbound/poll-tally'
import { applyReactionChange } from '../../../../src/services/messages/inbound/reaction-list'

const at = (ms: number) => new Date(1_795_000_000_000 + ms)

describe('tallyVotes', () => {
  it('counts each option in the poll’s order, voters by when they voted; an empty vote counts nowhere', () => {
    expect(
      tallyVotes(
        ['A', 'B', 'C'],
        [
          { voter: '2', options: ['B'], votedAt: at(20) },
          { voter: '1', options: ['A', 'B'], votedAt: at(10) },
          { voter: '3', options: [], votedAt: at(30) },
        ],
      ),
    ).toEqual([
      { option: 'A', count: 1, voters: ['1'] },
      { option: 'B', count: 2, voters: ['1', '2'] },
      { option: 'C', count: 0, voters: [] },
    ])
    expect(emptyTally(['Yes', 'No'])).toEqual([
      { option: 'Yes', count: 0, voters: [] },
      { option: 'No', count: 0, voters: [] },
    ])
  })
})

describe('applyReactionChange', () => {
  const ana = { from: '15551230001', names: ['15551230001', '700001@lid'] }
  const set = (emoji: string, ms: number) => ({ ...ana, emoji, at: at(ms) })

  it('keeps one reaction per person: a new emoji replaces theirs, "" deletes it, others stay', () => {
    const others = [{ from: '15551230002', emoji: '😂', reactedAt: at(1).toISOString() }]
    const first = applyReactionChange(others, set('👍', 10))!
    expect(first).toEqual([...others, { from: ana.from, emoji: '👍', reactedAt: at(10).toISOString() }])
    expect(applyReactionChange(first, set('❤️', 20))).toEqual([
      ...others,
      { from: ana.from, emoji: '❤️', reactedAt: at(20).toISOString() },
    ])
    expect(applyReactionChange(first, set('', 20))).toEqual(others)
  })

  it('finds the person under either name (a reaction by LID alone, then by number)', () => {
    const byLid = [{ from: '700001@lid', emoji: '👍', reactedAt: at(10).toISOString() }]
    expect(applyReactionChange(byLid, set('🔥', 20))).toEqual([
      { from: ana.from, emoji: '🔥', reactedAt: at(20).toISOString() },
    ])
  })

  it('changes nothing (null) for the same reaction again, an older one, or removing nothing', () => {
    const current = [{ from: ana.from, emoji: '👍', reactedAt: at(10).toISOString() }]
    expect(applyReactionChange(current, set('👍', 10))).toBeNull()
    expect(applyReactionChange(current, set('❤️', 5))).toBeNull()
    expect(applyReactionChange([], set('', 5))).toBeNull()
  })
})

describe('party names', () => {
  it('names a person by number, else by `<digits>@lid`', () => {
    expect(partyName({ phone: '1555', lid: '7' })).toBe('1555')
    expect(partyName({ lid: '7' })).toBe('7@lid')
    expect(partyName({})).toBeUndefined()
    expect(partyNames({ phone: '1555', lid: '7' })).toEqual(['1555', '7@lid'])
  })
})
