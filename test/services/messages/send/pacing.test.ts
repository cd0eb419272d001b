import { describe, expect, it } from 'vitest'
import { resolveConfig } from '../../../../src/config'
import {
  drawGapMs,
  isPaced,
  MAX_PRESENCE_MS,
  MIN_PRESENCE_MS,
  planTurn,
  presenceBefore,
  sessionPacing,
  TYPING_MS_PER_CHARACTER,
} from '../../../../src/services/messages/send/pacing'

const bytes = new Uint8Array(1)

/** The pacing policy: what shows before a send and for how long, the gap, who is paced. */
describe('send pacing policy', () => {
  it('types for the length of the text or caption, within bounds; records for a voice note’s length', () => {
    expect(presenceBefore({ kind: 'text', text: 'hi' })).toEqual({ state: 'composing', ms: MIN_PRESENCE_MS })
    expect(presenceBefore({ kind: 'text', text: 'x'.repeat(40) })).toEqual({
      state: 'composing',
      ms: 40 * TYPING_MS_PER_CHARACTER,
    })
    expect(presenceBefore({ kind: 'text', text: 'x'.repeat(100_000) }).ms).toBe(MAX_PRESENCE_MS)
    // Characters, not UTF-16 units: an emoji is one.
    expect(presenceBefore({ kind: 'text', text: '😀'.repeat(30) }).ms).toBe(30 * TYPING_MS_PER_CHARACTER)
    expect(presenceBefore({ kind: 'image', data: bytes, mimetype: 'image/png', caption: 'y'.repeat(30) }).ms).toBe(
      30 * TYPING_MS_PER_CHARACTER,
    )
    expect(presenceBefore({ kind: 'location', latitude: 0, longitude: 0 })).toEqual({
      state: 'composing',
      ms: MIN_PRESENCE_MS,
    })
    expect(presenceBefore({ kind: 'voice', data: bytes, mimetype: 'audio/ogg', seconds: 3 })).toEqual({
      state: 'recording',
      ms: 3_000,
    })
    expect(presenceBefore({ kind: 'voice', data: bytes, mimetype: 'audio/ogg', seconds: 900 }).ms).toBe(MAX_PRESENCE_MS)
  })

  it('draws the gap between the interval and the interval plus the jitter', () => {
    const pacing = { minIntervalMs: 1_000, jitterMs: 500, typing: false }
    expect(drawGapMs(pacing, () => 0)).toBe(1_000)
    expect(drawGapMs(pacing, () => 0.999_999)).toBe(1_500)
    expect(drawGapMs({ ...pacing, jitterMs: 0 }, () => 0.7)).toBe(1_000)
  })

  it('plans each turn max(gap, typing) after the hand-over before it, never before now', () => {
    // Typing longer than the gap: the typing is the turn (a queue of typing-only sends advances).
    expect(planTurn(0, 0, { gapMs: 0, presenceMs: 800 })).toEqual({ startsAt: 0, handoverAt: 800 })
    expect(planTurn(0, 800, { gapMs: 0, presenceMs: 800 })).toEqual({ startsAt: 800, handoverAt: 1_600 })
    expect(planTurn(0, 1_600, { gapMs: 300, presenceMs: 800 })).toEqual({ startsAt: 1_600, handoverAt: 2_400 })
    // The gap longer than the typing: the typing fills the end of the gap.
    expect(planTurn(0, 1_000, { gapMs: 2_000, presenceMs: 500 })).toEqual({ startsAt: 2_500, handoverAt: 3_000 })
    expect(planTurn(0, 1_000, { gapMs: 2_000, presenceMs: 0 })).toEqual({ startsAt: 3_000, handoverAt: 3_000 })
    // Nothing before it (or a hand-over long past): at once.
    expect(planTurn(5_000, Number.NEGATIVE_INFINITY, { gapMs: 1_000, presenceMs: 800 })).toEqual({
      startsAt: 5_000,
      handoverAt: 5_800,
    })
    expect(planTurn(5_000, 1_000, { gapMs: 1_000, presenceMs: 0 })).toEqual({ startsAt: 5_000, handoverAt: 5_000 })
  })

  it('paces a session by its own setting, else the operator’s; all zero and false is off', () => {
    const ctx = { config: resolveConfig({ sendPacing: { minIntervalMs: 700, jitterMs: 0, typing: false } }) }
    const own = { minIntervalMs: 0, jitterMs: 0, typing: false }
    expect(sessionPacing(ctx as never, { sendPacing: null })).toEqual(ctx.config.sendPacing)
    expect(sessionPacing(ctx as never, { sendPacing: own })).toBe(own)
    expect(isPaced(own)).toBe(false)
    expect(isPaced({ ...own, typing: true })).toBe(true)
    expect(isPaced({ ...own, jitterMs: 1 })).toBe(true)
    expect(isPaced(resolveConfig().sendPacing)).toBe(false)
  })
})
