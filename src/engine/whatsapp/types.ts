import type { SessionStatus } from '../../db/schema'

/** What the first moments of a new pairing give the user to act on. */
export interface PairingPrompt {
  qr: string
  /** Only in pairing-code mode: the code the user types on the phone. */
  pairingCode?: string
}

export interface OpenOptions {
  mode: 'qr' | 'pairing'
  /** Digits, country code first; required in pairing mode. */
  pairingNumber?: string
  autoRejectCalls: boolean
}

export interface NumberCheck {
  /** Digits as asked. */
  phone: string
  exists: boolean
  jid?: string
  lid?: string
}

/** Everything the engine reports; the session service turns these into persisted state. */
export type EngineEvent =
  | { type: 'status'; sessionId: string; status: SessionStatus; reason: string | null; number?: string; lid?: string }
  | { type: 'qr'; sessionId: string; qr: string }
  | { type: 'call'; sessionId: string; callId: string; from: string; isVideo: boolean; rejected: boolean }

/**
 * The WhatsApp side as services see it: live connections keyed by session id.
 * Services never touch Baileys; this is the only way in.
 */
export interface WhatsAppEngine {
  /** Opens (or reopens) a connection. For a session without credentials, resolves with the first QR. */
  open(sessionId: string, options: OpenOptions): Promise<PairingPrompt | null>
  /** Closes the connection without unlinking the device; credentials stay. */
  close(sessionId: string): Promise<void>
  /** Unlinks the device (when online), closes the connection and wipes the credentials. */
  logout(sessionId: string): Promise<void>
  /** Whether stored credentials exist from a completed pairing. */
  hasCredentials(sessionId: string): boolean
  isConnected(sessionId: string): boolean
  setAutoRejectCalls(sessionId: string, enabled: boolean): void
  /** One network round trip for the whole batch. */
  checkNumbers(sessionId: string, phones: string[]): Promise<NumberCheck[]>
  /** Closes every connection without logging out (shutdown). */
  stopAll(): Promise<void>
}

/** Raised for a network that answered with an error or not at all; services map them. */
export class EngineError extends Error {
  override readonly name = 'EngineError'
  constructor(
    readonly kind: 'timeout' | 'upstream' | 'not_connected',
    message: string,
  ) {
    super(message)
  }
}
