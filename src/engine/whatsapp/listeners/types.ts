import type { WASocket } from '@whiskeysockets/baileys'
import type { Logger } from '../../../logger'
import type { EngineFact } from '../port'

/** A fact without the session and socket stamp, which the connection adds. */
export type UnstampedFact = EngineFact extends infer F
  ? F extends EngineFact
    ? Omit<F, 'sessionId' | 'socket'>
    : never
  : never

/** What a per-socket listener gets: its socket, a logger, and where to report facts. */
export interface ListenerContext {
  socket: WASocket
  logger: Logger
  /** Drops the fact when this socket is no longer the session's current one. */
  report(fact: UnstampedFact): void
}
