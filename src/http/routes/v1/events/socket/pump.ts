import type { Logger } from '../../../../../logger'
import type { OutboxPosition, StoredEvent } from '../../../../../services/events/read'
import { CLOSE, eventFrame, PING_FRAME } from './frames'

/** What the pump writes to: a socket, whatever the runtime. */
export interface EventSocket {
  send(text: string): void
  close(code: number, reason: string): void
  /** Bytes sent but not yet on the wire (the client reads slower than events come). */
  bufferedAmount(): number
}

/** The same bound on lateness as the SSE stream's. */
export const POLL_MS = 250
/** Events sent per read; a backlog goes out a batch per turn, the buffer checked between. */
export const BATCH = 100
/** A ping frame this often keeps proxies (and Bun's idle timeout) from closing a quiet socket. */
export const HEARTBEAT_MS = 8_000
/** Past this many unsent bytes the outbox is not read: memory stays bounded for a slow reader. */
export const HIGH_WATER_BYTES = 1024 * 1024
/** A reader stuck above the high-water mark this long is closed (1008), its slot given back. */
export const STUCK_MS = 30_000

export interface PumpOptions {
  /** The scope's events after a position, oldest first (eventsAfter). */
  read(after: OutboxPosition, limit: number): StoredEvent[]
  after: OutboxPosition
  /** Why the credential no longer stands, or null (credentialEnded). */
  credentialEnded(): 'revoked' | 'expired' | null
  /** How long until the credential ends by itself (msUntilExpiry): no wait outlasts it. */
  msUntilExpiry(): number
  socket: EventSocket
  logger: Logger
  /** The gateway stopping: the socket closes with 1001 at its next turn. */
  ending: AbortSignal
}

/**
 * Sends the scope's events from the outbox as they are written, one turn per poll, until the
 * credential ends (4401), the gateway stops (1001), the reader stays stuck (1008) or stop().
 */
export function startPump({ read, credentialEnded, msUntilExpiry, socket, logger, ending, ...start }: PumpOptions): {
  stop(): void
} {
  let after = start.after
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastWrite = Date.now()
  let stuckSince: number | undefined

  const stop = () => {
    stopped = true
    clearTimeout(timer)
  }
  const end = (code: number, reason: string) => {
    stop()
    socket.close(code, reason)
  }
  const next = (ms: number) => {
    timer = setTimeout(turn, ms)
  }

  function turn() {
    try {
      step()
    } catch (error) {
      // A timer's throw would end the process: the socket ends instead, the cause logged.
      logger.error({ err: error }, 'event socket failed')
      end(CLOSE.internalError, 'internal error')
    }
  }

  function step() {
    if (stopped) return
    if (ending.aborted) return end(CLOSE.goingAway, 'gateway stopping')
    // Checked in the same turn as the read below: no event is read for a credential already ended.
    const ended = credentialEnded()
    if (ended) return end(CLOSE.unauthorized, `credential ${ended}`)
    const now = Date.now()
    if (socket.bufferedAmount() > HIGH_WATER_BYTES) {
      stuckSince ??= now
      if (now - stuckSince >= STUCK_MS) return end(CLOSE.policyViolation, 'reader too slow')
      return next(POLL_MS)
    }
    stuckSince = undefined
    const batch = read(after, BATCH)
    for (const event of batch) {
      socket.send(eventFrame(event))
      after = event.position
    }
    if (batch.length > 0) lastWrite = now
    else if (now - lastWrite >= HEARTBEAT_MS) {
      socket.send(PING_FRAME)
      lastWrite = now
    }
    // A full batch: more is waiting, read again as soon as the socket has had its turn.
    next(batch.length === BATCH ? 0 : Math.min(POLL_MS, msUntilExpiry()))
  }

  // `ending` is read each turn (at most POLL_MS apart) rather than listened to: a listener per
  // socket on the one signal would pile up past Node's warning threshold.
  turn()
  return { stop }
}
