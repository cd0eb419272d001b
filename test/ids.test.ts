import { decodeTime } from 'ulid'
import { describe, expect, it } from 'vitest'
import { newDeliveryId, newEventId } from '../src/ids'

/** Events and deliveries take time-ordered ids (ULIDs), so their indexes grow at one end (src/ids.ts). */
describe('event and delivery ids', () => {
  it('increase in the order they are made, within a millisecond too, and never repeat', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => (i % 2 ? newEventId() : newDeliveryId()).slice(4))
    expect(new Set(ids).size).toBe(ids.length)
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true)
    // 5,000 ids take a few milliseconds: many share one, and still increase
    expect(new Set(ids.map((id) => id.slice(0, 10))).size).toBeLessThan(ids.length)
  })

  it('are a lowercase ULID after their prefix, carrying the time they were made', () => {
    const before = Date.now()
    const event = newEventId()
    const delivery = newDeliveryId()
    expect(event).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/)
    expect(delivery).toMatch(/^dlv_[0-9a-hjkmnp-tv-z]{26}$/)
    for (const id of [event, delivery]) {
      const at = decodeTime(id.slice(4).toUpperCase())
      expect(at).toBeGreaterThanOrEqual(before)
      expect(at).toBeLessThanOrEqual(Date.now())
    }
  })

  it('are random after the time: ids made in different milliseconds share no random part', async () => {
    const first = newEventId().slice(14)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const second = newEventId().slice(14)
    expect(first).toHaveLength(16)
    // A new millisecond draws a fresh random part rather than counting on from the last one
    let same = 0
    for (let i = 0; i < 16; i++) if (first[i] === second[i]) same++
    expect(same).toBeLessThan(8)
  })
})
