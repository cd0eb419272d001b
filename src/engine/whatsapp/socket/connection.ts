import makeWASocket, {
  DEFAULT_CACHE_TTLS,
  generateMessageIDV2,
  jidDecode,
  type ConnectionState,
  type WASocket,
} from '@whiskeysockets/baileys'
import type { Boom } from '@hapi/boom'
import { isCacheableKey, storedAuthState, type StoredAuthState } from './auth-state'
import { hasPairedCredentials, isPaired } from './credentials'
import { backoffDelay } from '../../../shared/backoff'
import { closeCause, proxyFailureDetail } from './close-cause'
import { endSocket } from './end-socket'
import { LabelLayer } from '../labels/labels'
import { RingingCalls } from '../listeners/ringing-calls'
import { attachFactListeners } from '../listeners'
import { PrivacyLayer } from '../contacts/privacy'
import { ChannelLayer } from '../channels/channels'
import type { HistoryTcToken } from '../history/read-history'
import { storeTcTokens } from '../history/tc-tokens'
import { GroupLayer } from '../groups/groups'
import { ContactLayer } from '../contacts/contacts'
import type { UnstampedFact } from '../listeners/types'
import type { NetworkTarget } from './network-target'
import { proxiedTarget, ProxyTargetError } from './proxy-target'
import { withNetworkErrors } from './network-errors'
import { reuploadMedia } from '../media/media-retry'
import { checkNumbers } from '../messages/number-check'
import { lookupPhone, phoneForLid } from '../messages/recipients'
import type { OutboundContent } from '../port/messages'
import { editText, revokeMessage, sendContent } from '../messages/sender'
import { forwardRefusal } from '../messages/forwardable'
import { markRead, sendPresence } from '../messages/chat-actions'
import { FirstPrompt } from './pairing-prompt'
import { withSharedAsyncStorage } from '../shared-async-storage'
import { socketConfig } from './socket-config'
import { newSocketRun, probeLiveness, watchSocket, type SocketRun } from './socket-run'
import type { SocketCaches } from './socket-caches'
import {
  EngineError,
  type CloseCause,
  type EngineFact,
  type MediaMessageRef,
  type OpenOptions,
  type OwnMessageRef,
  type PairingPrompt,
  type PresenceUpdate,
  type ProxySetting,
  type ReceivedMessageRef,
  type SendOptions,
  type SessionHandle,
} from '../port'
import type { ConnectionDeps } from './connection-deps'

/**
 * One session's live link to WhatsApp: opens Baileys sockets, attaches the per-socket
 * listeners to each, and reports what happens as facts stamped with the socket's number.
 * It decides nothing about status: after a close it waits for reconnect() or end().
 */
export class SessionConnection implements SessionHandle {
  #socket: WASocket | undefined
  #socketNumber = 0
  #auth: StoredAuthState | undefined
  #caches: SocketCaches | undefined
  #online = false
  #stopped = false
  #attempt = 0
  #reconnectTimer: NodeJS.Timeout | undefined
  readonly #prompt = new FirstPrompt()
  #run: SocketRun | undefined
  #target: NetworkTarget | undefined
  readonly groups: GroupLayer
  readonly contacts: ContactLayer
  readonly privacy: PrivacyLayer
  readonly channels: ChannelLayer
  readonly labels: LabelLayer
  readonly #ringing = new RingingCalls()

  constructor(
    readonly sessionId: string,
    private options: OpenOptions,
    private readonly deps: ConnectionDeps,
  ) {
    this.groups = new GroupLayer({
      logger: deps.logger,
      socket: () => this.#connected(),
      stored: (jid) => deps.groupMetadata(sessionId, jid),
    })
    this.contacts = new ContactLayer({ socket: () => this.#connected(), queryTimeoutMs: deps.timing.queryTimeoutMs })
    this.privacy = new PrivacyLayer(() => this.#connected(), deps.logger)
    this.channels = new ChannelLayer(() => this.#connected())
    this.labels = new LabelLayer({ socket: () => this.#connected(), queryTimeoutMs: deps.timing.queryTimeoutMs })
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

  async rejectCall(callId: string): Promise<{ from: string } | null> {
    const from = this.#ringing.callerOf(callId)
    if (!from) return null
    await withNetworkErrors(() => this.#connected().rejectCall(callId, from))
    this.#ringing.ended(callId)
    return { from }
  }

  setProxy(proxy: ProxySetting | undefined): void {
    this.options = { ...this.options, proxy }
  }

  /** The network target of the socket in use (media code takes its agents from here). */
  get networkTarget(): NetworkTarget {
    return this.#target ?? this.deps.direct
  }

  /** A bootstrap chunk read only for its LID mappings and privacy tokens (readHistory keeps them). */
  #readForKeys(notification: Uint8Array): void {
    void (async () => {
      for await (const _ of this.deps.readHistory(this.sessionId, notification)) {
        // The parts themselves are not this session's to keep.
      }
    })().catch((error: unknown) =>
      this.deps.logger.warn({ err: error }, 'could not read the history bootstrap for LID mappings'),
    )
  }

  /** The privacy tokens WhatsApp keeps per chat (history gives them), for Baileys' 1:1 sends. */
  rememberTcTokens(tokens: HistoryTcToken[]): void {
    const socket = this.#socket
    if (!socket || tokens.length === 0) return
    storeTcTokens(socket, tokens).catch((error: unknown) =>
      this.deps.logger.warn({ err: error }, 'could not keep privacy tokens from history'),
    )
  }

  /** Phone ↔ LID pairs learnt elsewhere (history), for the socket in use to address those chats. */
  rememberLidMappings(pairs: { phone: string; lid: string }[]): void {
    const socket = this.#socket
    if (!socket || pairs.length === 0) return
    socket.signalRepository.lidMapping
      .storeLIDPNMappings(pairs.map(({ phone, lid }) => ({ pn: `${phone}@s.whatsapp.net`, lid: `${lid}@lid` })))
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'could not keep LID mappings from history'))
  }

  /** The media host media_conn announced to the socket in use (Baileys keeps the first), if it asked. */
  get announcedMediaHosts(): string[] {
    const host = this.#socket?.getMediaHost()
    return host ? [host] : []
  }

  start(): void {
    const number = ++this.#socketNumber
    void this.#open(number).catch((error: unknown) =>
      this.deps.logger.error({ err: error }, 'could not open a WhatsApp socket'),
    )
  }

  /** A proxied connection's target, or the shared direct one. */
  async #targetFor(proxy: ProxySetting | undefined): Promise<NetworkTarget> {
    if (!proxy) return this.deps.direct
    return proxiedTarget(this.deps.endpoint, proxy, this.deps.proxyGuard)
  }

  // A target holds nothing to release: its agents keep no idle sockets (keepAlive off)
  #releaseTarget(): void {
    this.#target = undefined
  }

  async #open(number: number): Promise<void> {
    const current = () => number === this.#socketNumber && !this.#stopped
    // After a 405 the current version is being learnt: this socket announces the new one.
    await this.deps.versions.settled()
    if (!current()) return
    let target: NetworkTarget
    try {
      target = await this.#targetFor(this.options.proxy)
    } catch (error) {
      if (!current()) return
      const cause: CloseCause = error instanceof ProxyTargetError ? error.closeCause : 'proxy_unreachable'
      this.deps.logger.warn({ cause, reason: (error as Error).message }, 'the session’s proxy cannot be used')
      this.deps.report({
        type: 'closed',
        sessionId: this.sessionId,
        socket: number,
        message: (error as Error).message,
        paired: hasPairedCredentials(this.deps.authStore, this.sessionId),
        mode: this.options.mode,
        cause,
      })
      return
    }
    if (!current()) return
    this.#releaseTarget()
    this.#target = target
    // The previous socket has closed: its cached keys, devices and retry counts go with it.
    this.#caches?.close()
    const caches = this.deps.caches.open()
    this.#caches = caches
    const auth = storedAuthState(
      this.deps.authStore,
      this.sessionId,
      this.deps.logger,
      caches.cache(DEFAULT_CACHE_TTLS.SIGNAL_STORE, isCacheableKey),
      current,
      this.deps.fairness,
    )
    this.#auth = auth
    const version = this.deps.versions.current()
    const run = newSocketRun(target !== this.deps.direct, version)
    this.#run = run
    const socket = withSharedAsyncStorage(() =>
      makeWASocket(
        socketConfig({
          auth,
          caches,
          target,
          version,
          timing: this.deps.timing,
          logger: this.deps.baileysLogger,
          cachedGroupMetadata: this.groups.cachedMetadata,
          storedMessage: (messageId) => this.deps.storedMessage(this.sessionId, messageId),
          history: this.options.history,
        }),
      ),
    )
    this.#socket = socket
    watchSocket(socket, run)
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
      if (current()) this.#onUpdate(socket, run, update, context.report)
    })
    attachFactListeners(context, {
      storedMessage: (messageId) => this.deps.storedMessage(this.sessionId, messageId),
      autoRejectCalls: () => this.options.autoRejectCalls,
      ringing: this.#ringing,
      history: this.options.history !== undefined,
      readForKeys: (notification) => this.#readForKeys(notification),
    })
    this.groups.attach(context)
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
    if (socket) endSocket(socket)
  }

  checkLiveness(): void {
    const socket = this.#socket
    const run = this.#run
    if (!this.online || !socket || !run) return
    probeLiveness(socket, run, {
      waitMs: this.deps.timing.keepAliveIntervalMs,
      logger: this.deps.logger,
      stillCurrent: () => this.#run === run && !this.#stopped,
    })
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

  forwardRefusal(payload: Uint8Array) {
    return forwardRefusal(payload)
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

  markRead(messages: ReceivedMessageRef[]) {
    return withNetworkErrors(() => markRead(this.#connected(), messages))
  }

  get hasProfileName(): boolean {
    return Boolean(this.#auth?.state.creds.me?.name)
  }

  sendPresence(update: PresenceUpdate) {
    return withNetworkErrors(() => sendPresence(this.#connected(), update))
  }

  phoneForLid(lidJid: string) {
    return withNetworkErrors(() => phoneForLid(this.#connected(), lidJid))
  }

  lookupPhone(phoneJid: string) {
    return withNetworkErrors(() => lookupPhone(this.#connected(), phoneJid))
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
    this.#releaseTarget()
    this.#prompt.fail(new Error('connection closed before a QR code arrived'))
    this.deps.onStopped(this)
  }

  #onUpdate(
    socket: WASocket,
    run: SocketRun,
    update: Partial<ConnectionState>,
    report: (fact: UnstampedFact) => void,
  ): void {
    if (update.qr) {
      report({ type: 'qr', qr: update.qr })
      void this.#prompt.offer(socket, update.qr, this.options)
    }
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
      const code = error?.output?.statusCode
      const end = { code, message: error?.message, data: error?.data, ...run }
      const cause = closeCause(end)
      if (cause === 'outdated_version') void this.deps.versions.refreshAfterOutdated(run.version)
      // The workspace reads only proxy_unreachable: what actually happened is the operator's.
      if (cause === 'proxy_unreachable')
        this.deps.logger.warn({ cause, reason: proxyFailureDetail(end) }, 'the session’s proxy did not reach WhatsApp')
      report({
        type: 'closed',
        code,
        message: error?.message,
        paired,
        mode: this.options.mode,
        ...(cause ? { cause } : {}),
      })
    }
  }
}
