import makeWASocket, { jidDecode, type WACallEvent, type WASocket, type ConnectionState } from '@whiskeysockets/baileys'
import type { Boom } from '@hapi/boom'
import type { GatewayDatabase } from '../../db/database'
import type { Logger } from '../../logger'
import { clearAuthState, isPaired, sqliteAuthState, type SqliteAuthState } from './auth-state'
import { backoffDelay, type BackoffPolicy } from './backoff'
import { closeReason, decideAfterClose } from './disconnect-policy'
import type { NetworkTarget } from './network-target'
import type { EngineEvent, OpenOptions, PairingPrompt } from './types'

export interface ConnectionTiming {
  qrTimeoutMs?: number
  queryTimeoutMs: number
  backoff: BackoffPolicy
}

export interface ConnectionDeps {
  db: GatewayDatabase
  logger: Logger
  /** What Baileys itself logs through. */
  baileysLogger: Logger
  target: NetworkTarget
  timing: ConnectionTiming
  emit(event: EngineEvent): void
  /** Called once when the connection stops for good (not for reconnects). */
  onStopped(connection: SessionConnection): void
}

/**
 * One session's live link to WhatsApp: opens a Baileys socket, follows its lifecycle,
 * reconnects with backoff and reports status. Knows nothing of HTTP or workspaces.
 */
export class SessionConnection {
  #socket: WASocket | undefined
  #auth: SqliteAuthState | undefined
  #online = false
  #stopped = false
  #attempt = 0
  #reconnectTimer: NodeJS.Timeout | undefined
  #prompt: { promise: Promise<PairingPrompt>; resolve(p: PairingPrompt): void; reject(e: Error): void }
  #prompted = false

  constructor(
    readonly sessionId: string,
    private options: OpenOptions,
    private readonly deps: ConnectionDeps,
  ) {
    let resolve!: (p: PairingPrompt) => void
    let reject!: (e: Error) => void
    const promise = new Promise<PairingPrompt>((res, rej) => ((resolve = res), (reject = rej)))
    promise.catch(() => {}) // a restore never awaits its prompt
    this.#prompt = { promise, resolve, reject }
  }

  /** The first QR (and pairing code) of a new pairing. */
  get prompt(): Promise<PairingPrompt> {
    return this.#prompt.promise
  }

  /** The socket while the session is online, else undefined. */
  get socket(): WASocket | undefined {
    return this.#online ? this.#socket : undefined
  }

  setAutoRejectCalls(enabled: boolean): void {
    this.options = { ...this.options, autoRejectCalls: enabled }
  }

  start(): void {
    const auth = sqliteAuthState(this.deps.db, this.sessionId, this.deps.logger)
    this.#auth = auth
    const { target, timing } = this.deps
    const socket = makeWASocket({
      auth: auth.state,
      logger: this.deps.baileysLogger as never,
      waWebSocketUrl: target.waWebSocketUrl,
      fetchAgent: target.fetchAgent,
      markOnlineOnConnect: false,
      // Full history would buffer events for long on first connect; LID mappings arrive without it.
      shouldSyncHistoryMessage: () => false,
      syncFullHistory: false,
      qrTimeout: timing.qrTimeoutMs,
      defaultQueryTimeoutMs: timing.queryTimeoutMs,
    })
    this.#socket = socket
    socket.ev.on('creds.update', () => auth.saveCreds())
    socket.ev.on('connection.update', (update) => this.#onUpdate(socket, update))
    socket.ev.on('call', (calls) => void this.#onCalls(socket, calls))
  }

  /** Stops for good without unlinking: shutdown, or a session taken offline. */
  async end(): Promise<void> {
    this.#stop()
    this.#socket?.end(undefined)
  }

  /** Unlinks the device when online, then stops and wipes the credentials. */
  async logout(): Promise<void> {
    const socket = this.socket
    this.#stop()
    if (socket) {
      try {
        await socket.logout()
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'logout did not reach WhatsApp; wiping credentials locally')
        socket.end(undefined)
      }
    } else {
      this.#socket?.end(undefined)
    }
    clearAuthState(this.deps.db, this.sessionId)
  }

  #stop(): void {
    if (this.#stopped) return
    this.#stopped = true
    this.#online = false
    clearTimeout(this.#reconnectTimer)
    this.#prompt.reject(new Error('connection closed before a QR code arrived'))
    this.deps.onStopped(this)
  }

  #onUpdate(socket: WASocket, update: Partial<ConnectionState>): void {
    if (socket !== this.#socket || this.#stopped) return
    if (update.qr) void this.#onQr(socket, update.qr)
    if (update.connection === 'open') this.#onOpen(socket)
    if (update.connection === 'close') this.#onClose(update.lastDisconnect?.error as Boom | undefined)
  }

  async #onQr(socket: WASocket, qr: string): Promise<void> {
    this.deps.emit({ type: 'qr', sessionId: this.sessionId, qr })
    if (this.#prompted) return
    this.#prompted = true
    if (this.options.mode !== 'pairing') return this.#prompt.resolve({ qr })
    try {
      const pairingCode = await socket.requestPairingCode(this.options.pairingNumber!)
      this.#prompt.resolve({ qr, pairingCode })
    } catch (error) {
      this.#prompt.reject(error as Error)
    }
  }

  #onOpen(socket: WASocket): void {
    this.#online = true
    this.#attempt = 0
    const user = socket.user
    const number = user?.id ? jidDecode(user.id)?.user : undefined
    const lid = user?.lid ? jidDecode(user.lid)?.user : undefined
    this.deps.logger.info({ number }, 'session connected')
    this.deps.emit({ type: 'status', sessionId: this.sessionId, status: 'connected', reason: null, number, lid })
  }

  #onClose(error: Boom | undefined): void {
    const wasOnline = this.#online
    this.#online = false
    const code = error?.output?.statusCode
    const paired = this.#auth ? isPaired(this.#auth.state.creds) : false
    const decision = decideAfterClose({ code, message: error?.message, paired, mode: this.options.mode })
    this.deps.logger.info({ code, message: error?.message, decision }, 'connection closed')

    if (decision.action === 'stop') {
      this.#stop()
      if (decision.wipeCredentials) clearAuthState(this.deps.db, this.sessionId)
      this.deps.emit({ type: 'status', sessionId: this.sessionId, status: decision.status, reason: decision.reason })
      return
    }
    if (wasOnline) {
      this.deps.emit({ type: 'status', sessionId: this.sessionId, status: 'connecting', reason: closeReason(code) })
    }
    const delay = decision.immediately ? 0 : backoffDelay(++this.#attempt, this.deps.timing.backoff)
    if (delay > 0) this.deps.logger.info({ attempt: this.#attempt, delayMs: delay }, 'reconnecting')
    this.#reconnectTimer = setTimeout(() => {
      if (!this.#stopped) this.start()
    }, delay)
  }

  async #onCalls(socket: WASocket, calls: WACallEvent[]): Promise<void> {
    for (const call of calls) {
      if (call.status !== 'offer') continue
      const rejected = this.options.autoRejectCalls
      if (rejected) {
        await socket.rejectCall(call.id, call.from).catch((error: unknown) => {
          this.deps.logger.warn({ err: error, callId: call.id }, 'could not reject call')
        })
      }
      this.deps.emit({
        type: 'call',
        sessionId: this.sessionId,
        callId: call.id,
        from: call.from,
        isVideo: Boolean(call.isVideo),
        rejected,
      })
    }
  }
}
