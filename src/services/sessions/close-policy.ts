import { CloseCode, type CloseCause } from '../../engine/whatsapp/port'
import type { SessionStatus } from '../../shared/session-statuses'

export interface CloseContext {
  /** Baileys' status code from lastDisconnect (undefined when it gave none). */
  code?: number
  message?: string
  /** Whether the session completed pairing (has an account identity). */
  paired: boolean
  mode: 'qr' | 'pairing'
  /** What the engine could tell beyond the code (outdated version, proxy, unresponsive). */
  cause?: CloseCause
}

export type CloseDecision =
  | { action: 'reconnect'; immediately: boolean }
  | { action: 'stop'; status: SessionStatus; reason: string; wipeCredentials: boolean }

/**
 * What to do when Baileys closes a connection the gateway did not close itself.
 * Pure, so every branch is unit-tested without a network.
 */
export function decideAfterClose({ code, message, paired, mode, cause }: CloseContext): CloseDecision {
  // After pair-success the server asks for a restart; the new connection logs in.
  if (code === CloseCode.restartRequired) return { action: 'reconnect', immediately: true }

  if (!paired) {
    // A pairing that could not even reach WhatsApp (or was refused as outdated) says why.
    if (cause && cause !== 'unresponsive')
      return { action: 'stop', status: 'expired', reason: cause, wipeCredentials: true }
    // A QR (or pairing code) belongs to one connection: when it ends unused, pairing is over.
    const timedOut = code === CloseCode.timedOut && /QR refs/i.test(message ?? '')
    const reason = timedOut ? (mode === 'pairing' ? 'pairing_code_timeout' : 'qr_timeout') : 'pairing_interrupted'
    return { action: 'stop', status: 'expired', reason, wipeCredentials: true }
  }

  switch (code) {
    case CloseCode.loggedOut:
      return { action: 'stop', status: 'logged_out', reason: 'device_removed', wipeCredentials: true }
    case CloseCode.forbidden:
      return { action: 'stop', status: 'logged_out', reason: 'forbidden', wipeCredentials: true }
    case CloseCode.connectionReplaced:
      // Another client took this device over; reconnecting would only kick it back out, forever.
      return { action: 'stop', status: 'disconnected', reason: 'connection_replaced', wipeCredentials: false }
    default:
      return { action: 'reconnect', immediately: false }
  }
}

/**
 * Short machine word for a close we reconnect from, for statusReason: the engine's cause when it
 * knows one (outdated_version, unresponsive, proxy_*), else the close code's.
 */
export function closeReason(code: number | undefined, cause?: CloseCause): string {
  if (cause) return cause
  switch (code) {
    case CloseCode.connectionClosed:
      return 'connection_closed'
    case CloseCode.connectionLost:
      return 'connection_lost'
    case CloseCode.badSession:
      return 'bad_session'
    case CloseCode.unavailableService:
      return 'service_unavailable'
    case CloseCode.multideviceMismatch:
      return 'multidevice_mismatch'
    default:
      return 'connection_error'
  }
}
