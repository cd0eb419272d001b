/** vitest's fake timers (bun test has no advanceTimersToNextTimerAsync): a Node-only file, a runtime-neutral pump. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  BATCH,
  HEARTBEAT_MS,
  HIGH_WATER_BYTES,
  POLL_MS,
  STUCK_MS,
  startPump,
} from '../../../../../../src/http/routes/v1/events/socket/pump'
import { silentLogger } from '../../../../../../src/logger'
import type { StoredEvent } from '../../../../../../src/services/events/read'

/** An outbox of `count` events and a socket whose unsent bytes the test sets. */
function rig(count: number) {
  const outbox: StoredEvent[] = Array.from({ length: count }, (_, i) => ({
    position: i + 1,
    id: `evt_${i + 1}`,
    type: 'message.received',
    body: `{"n":${i + 1}}`,
  }))
  const sent: string[] = []
  const closes: { code: number; reason: string }[] = []
  const reads: number[] = []
  const state = { buffered: 0, ended: null as 'revoked' | 'expired' | null }
  const ending = new AbortController()
  const pump = startPump({
    read: (after, limit) => {
      reads.push(after)
      return outbox.filter((e) => e.position > after).slice(0, limit)
    },
    after: 0,
    credentialEnded: () => state.ended,
    msUntilExpiry: () => Number.POSITIVE_INFINITY,
    socket: {
      send: (text) => sent.push(text),
      close: (code, reason) => closes.push({ code, reason }),
      bufferedAmount: () => state.buffered,
    },
    logger: silentLogger(),
    ending: ending.signal,
  })
  const events = () => sent.filter((f) => f.startsWith('{"id"'))
  return { outbox, sent, closes, reads, state, ending, pump, events }
}

describe('the event socket pump', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('sends a backlog a batch per turn, each event its own frame', async () => {
    const r = rig(BATCH * 2 + 5)
    expect(r.events()).toHaveLength(BATCH)
    // A full batch: the next read waits only for the socket's turn, not a poll.
    await vi.advanceTimersToNextTimerAsync()
    expect(r.events()).toHaveLength(BATCH * 2)
    await vi.advanceTimersToNextTimerAsync()
    expect(r.events()).toHaveLength(BATCH * 2 + 5)
    expect(r.events()[0]).toBe('{"id":"evt_1","type":"message.received","data":{"n":1}}')
    r.pump.stop()
  })

  it('reads nothing while the socket holds more than the high-water mark, then goes on', async () => {
    const r = rig(BATCH + 10)
    r.state.buffered = HIGH_WATER_BYTES + 1
    const readsBefore = r.reads.length
    await vi.advanceTimersByTimeAsync(POLL_MS * 10)
    expect(r.reads.length).toBe(readsBefore)
    expect(r.events()).toHaveLength(BATCH)
    r.state.buffered = 0
    await vi.advanceTimersByTimeAsync(POLL_MS)
    expect(r.events()).toHaveLength(BATCH + 10)
    expect(r.closes).toEqual([])
    r.pump.stop()
  })

  it('closes a reader stuck above the mark for STUCK_MS with 1008', async () => {
    const r = rig(BATCH)
    r.state.buffered = HIGH_WATER_BYTES + 1
    await vi.advanceTimersByTimeAsync(STUCK_MS - POLL_MS * 2)
    expect(r.closes).toEqual([])
    await vi.advanceTimersByTimeAsync(POLL_MS * 3)
    expect(r.closes).toEqual([{ code: 1008, reason: 'reader too slow' }])
    const reads = r.reads.length
    await vi.advanceTimersByTimeAsync(POLL_MS * 10)
    expect(r.reads.length).toBe(reads)
  })

  it('pings a quiet socket every HEARTBEAT_MS', async () => {
    const r = rig(0)
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS - POLL_MS)
    expect(r.sent).toEqual([])
    await vi.advanceTimersByTimeAsync(POLL_MS * 2)
    expect(r.sent).toEqual(['{"type":"ping"}'])
    r.pump.stop()
  })

  it('closes with 4401 once the credential ends, reading nothing more, and with 1001 when the gateway stops', async () => {
    const revoked = rig(0)
    revoked.state.ended = 'revoked'
    const reads = revoked.reads.length
    await vi.advanceTimersByTimeAsync(POLL_MS)
    expect(revoked.closes).toEqual([{ code: 4401, reason: 'credential revoked' }])
    expect(revoked.reads.length).toBe(reads)

    const stopping = rig(0)
    stopping.ending.abort()
    await vi.advanceTimersByTimeAsync(POLL_MS)
    expect(stopping.closes).toEqual([{ code: 1001, reason: 'gateway stopping' }])
  })
})
