import makeWASocket, {
  DEFAULT_CACHE_TTLS,
  generateMessageIDV2,
  jidDecode,
  proto,
  type ConnectionState,
  type WASocket,
} from '@whiskeysockets/baileys'
import type { Boom } from '@hapi/boom'
import type { GatewayDatabase } from '../../db/database'
import type { Logger } from '../../logger'
import { isCacheableKey, sqliteAuthState, type SqliteAuthState } from './auth-state'
import type { AuthStatements } from './auth-statements'
import type { BaileysLogger } from './baileys-logger'
import { isPaired } from './credentials'
import { backoffDelay, type BackoffPolicy } from './backoff'
import { shouldSyncHistory } from './history-sync'
import { attachAckListener } from './listeners/acks'
import { attachCallListener } from './listeners/calls'
import { attachInboundListener } from './listeners/inbound'
import { attachReceiptListener } from './listeners/receipts'
import type { UnstampedFact } from './listeners/types'
import type { NetworkTarget } from './network-target'
import { withNetworkErrors } from './network-errors'
import { reuploadMedia } from './media-retry'
import { checkNumbers } from './number-check'
import type { OutboundContent } from './outbound-content'
import { editText, revokeMessage, sendContent } from './sender'
import { withSharedAsyncStorage } from './shared-async-storage'
import type { SocketCaches, SocketCacheRegistry } from './socket-caches'
import {
  EngineError,
  type EngineFact,
  type MediaMessageRef,
  type OpenOptions,
  type OwnMessageRef,
  type PairingPrompt,
  type SendOptions,
  type SessionHandle,
} from './types'

export interface ConnectionTiming {
  qrTimeoutMs?: number
  queryTimeoutMs: number
  backoff: BackoffPolicy
}

export interface ConnectionDeps {
  db: GatewayDatabase
  /** The key store's prepared statements, shared by the engine's connections. */
  authStatements: AuthStatements
  logger: Logger
  /** What Baileys itself logs through. */
  baileysLogger: BaileysLogger
  target: NetworkTarget
  timing: ConnectionTiming
  /** Where each socket's caches come from (one sweep timer for the engine). */
  caches: SocketCacheRegistry
  report(fact: EngineFact): void
  /** A message we sent earlier, for Baileys to send again when a device asks (retry receipts). */
  storedMessage(sessionId: string, messageId: string): Uint8Array | undefined
  /** Called once when the connection stops for good (not for reconnects). */
  onStopped(connection: SessionConnection): void
}

/**
 * One session's live link to WhatsApp: opens Baileys sockets, attaches the per-socket
 * listeners to each, and reports what happens as facts stamped with the socket's number.
 * It decides nothing about status: after a close it waits for reconnect() or end().
 */
export class SessionConnection implements SessionHandle {
  #socket: WASocket | undefined
  #socketNumber = 0
  #auth: SqliteAuthState | undefined
  #caches: SocketCaches | undefined
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
    const promise = new Promise<PairingPrompt>((res, rej) => {
      resolve = res
      reject = rej
    })
    promise.catch(() => {}) // a restore never awaits its prompt
    this.#prompt = { promise, resolve, reject }
  }

  get prompt(): Promise<PairingPrompt> {
    return this.#prompt.promise
  }

  get online(): boolean {
    return this.#online && !this.#stopped
  }

  setAutoRejectCalls(enabled: boolean): void {
    this.options = { ...this.options, autoRejectCalls: enabled }
  }

  start(): void {
    const number = ++this.#socketNumber
    const current = () => number === this.#socketNumber && !this.#stopped
    // The previous socket has closed: its cached keys, devices and retry counts go with it.
    this.#caches?.close()
    const caches = this.deps.caches.open()
    this.#caches = caches
    const ttl = DEFAULT_CACHE_TTLS
    const auth = sqliteAuthState(
      this.deps.db,
      this.deps.authStatements,
      this.sessionId,
      this.deps.logger,
      caches.cache(ttl.SIGNAL_STORE, isCacheableKey),
      current,
    )
    this.#auth = auth
    const { target, timing } = this.deps
    const socket = withSharedAsyncStorage(() =>
      makeWASocket({
        auth: auth.state,
        msgRetryCounterCache: caches.cache(ttl.MSG_RETRY),
        userDevicesCache: caches.cache(ttl.USER_DEVICES),
        callOfferCache: caches.cache(ttl.CALL_OFFER),
        placeholderResendCache: caches.cache(ttl.MSG_RETRY),
        logger: this.deps.baileysLogger,
        waWebSocketUrl: target.waWebSocketUrl,
        fetchAgent: target.fetchAgent,
        markOnlineOnConnect: false,
        shouldSyncHistoryMessage: shouldSyncHistory,
        syncFullHistory: false,
        qrTimeout: timing.qrTimeoutMs,
        defaultQueryTimeoutMs: timing.queryTimeoutMs,
        getMessage: async (key) => {
          const payload = key.id ? this.deps.storedMessage(this.sessionId, key.id) : undefined
          return payload ? proto.Message.decode(payload) : undefined
        },
      }),
    )
    this.#socket = socket
    const context = {
      socket,
      logger: this.deps.logger,
      report: (fact: UnstampedFact) => {
        if (current()) this.deps.report({ ...fact, sessionId: this.sessionId, socket: number } as EngineFact)
      },
    }
    // Credentials of a replaced socket must not overwrite the current ones (saveCreds checks).
    socket.ev.on('creds.update', () => auth.saveCreds())
    socket.ev.on('connection.update', (update) => {
      if (current()) this.#onUpdate(socket, update, context.report)
    })
    attachAckListener(context)
    attachReceiptListener(context)
    attachInboundListener(context)
    attachCallListener(context, () => this.options.autoRejectCalls)
  }

  reconnect({ immediately }: { immediately: boolean }): void {
    if (this.#stopped) return
    clearTimeout(this.#reconnectTimer)
    const delay = immediately ? 0 : backoffDelay(++this.#attempt, this.deps.timing.backoff)
    if (delay > 0) this.deps.logger.info({ attempt: this.#attempt, delayMs: delay }, 'reconnecting')
    this.#reconnectTimer = setTimeout(() => {
      if (!this.#stopped) this.start()
    }, delay)
  }

  async end(): Promise<void> {
    const socket = this.#socket
    this.#stop()
    socket?.end(undefined)
  }

  async unlink(): Promise<void> {
    const socket = this.#online ? this.#socket : undefined
    if (!socket)
      throw new EngineError('not_connected', 'The session is offline; WhatsApp cannot be told to unlink it now')
    this.#stop()
    try {
      await socket.logout()
    } catch (error) {
      socket.end(undefined)
      throw new EngineError('upstream', `unlink did not reach WhatsApp: ${(error as Error).message}`)
    }
  }

  newMessageId(): string {
    return generateMessageIDV2(this.#socket?.user?.id)
  }

  send(to: string, content: OutboundContent, options: SendOptions = {}) {
    const messageId = options.messageId ?? this.newMessageId()
    return withNetworkErrors(() =>
      sendContent(this.#connected(), this.deps.logger, to, content, { ...options, messageId }),
    )
  }

  edit(message: OwnMessageRef, text: string) {
    return withNetworkErrors(() => editText(this.#connected(), message, text))
  }

  revoke(message: OwnMessageRef) {
    return withNetworkErrors(() => revokeMessage(this.#connected(), message))
  }

  checkNumbers(phones: string[]) {
    return withNetworkErrors(() => checkNumbers(this.#connected(), phones))
  }

  reuploadMedia(message: MediaMessageRef, timeoutMs: number) {
    return withNetworkErrors(() => reuploadMedia(this.#connected(), message, timeoutMs))
  }

  /** Where this session's traffic goes (its media downloads too). */
  get networkTarget(): NetworkTarget {
    return this.deps.target
  }

  #connected(): WASocket {
    if (!this.online || !this.#socket) throw new EngineError('not_connected', 'The session is not connected')
    return this.#socket
  }

  #stop(): void {
    if (this.#stopped) return
    this.#stopped = true
    this.#online = false
    clearTimeout(this.#reconnectTimer)
    this.#caches?.close()
    this.#prompt.reject(new Error('connection closed before a QR code arrived'))
    this.deps.onStopped(this)
  }

  #onUpdate(socket: WASocket, update: Partial<ConnectionState>, report: (fact: UnstampedFact) => void): void {
    if (update.qr) void this.#onQr(socket, update.qr, report)
    if (update.connection === 'open') {
      this.#online = true
      this.#attempt = 0
      const user = socket.user
      const number = user?.id ? jidDecode(user.id)?.user : undefined
      const lid = user?.lid ? jidDecode(user.lid)?.user : undefined
      report({ type: 'opened', ...(number ? { number } : {}), ...(lid ? { lid } : {}) })
    }
    if (update.connection === 'close') {
      this.#online = false
      const error = update.lastDisconnect?.error as Boom | undefined
      const paired = this.#auth ? isPaired(this.#auth.state.creds) : false
      report({
        type: 'closed',
        code: error?.output?.statusCode,
        message: error?.message,
        paired,
        mode: this.options.mode,
      })
    }
  }

  async #onQr(socket: WASocket, qr: string, report: (fact: UnstampedFact) => void): Promise<void> {
    report({ type: 'qr', qr })
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
}
