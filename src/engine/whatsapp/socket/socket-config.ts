import { DEFAULT_CACHE_TTLS, proto, type SocketConfig } from '@whiskeysockets/baileys'
import type { StoredAuthState } from './auth-state'
import type { BaileysLogger } from '../baileys-logger'
import { shouldSyncHistory } from './history-sync'
import type { NetworkTarget } from './network-target'
import type { SocketCaches } from './socket-caches'
import type { ConnectionTiming } from './connection-deps'

/** The properties the project's Baileys patch adds (patches/). */
interface PatchedConfig {
  /** A full sync's day limit, asked at pairing. */
  fullSyncDaysLimit?: number
  /** Called before every frame goes to WhatsApp (see AuthStore.commit). */
  beforeFrame?: () => void
}

export interface SocketSettings {
  auth: StoredAuthState
  caches: SocketCaches
  target: NetworkTarget
  version: [number, number, number]
  timing: ConnectionTiming
  logger: BaileysLogger
  cachedGroupMetadata: SocketConfig['cachedGroupMetadata']
  /** Ask for the phone's history at pairing, this many days back (OpenOptions.history). */
  history?: { days: number }
  /** A message we sent earlier, for Baileys to send again when a device asks (retry receipts). */
  storedMessage(messageId: string): Uint8Array | undefined
}

/**
 * Everything makeWASocket is given, in one place: the gateway's caches and key store, where to
 * connect and through what, the version, the timings, and what it must not do on its own
 * (announce the account online, sync history).
 */
export function socketConfig(
  settings: SocketSettings,
): Partial<SocketConfig> & Pick<SocketConfig, 'auth'> & PatchedConfig {
  const { auth, caches, target, version, timing } = settings
  const ttl = DEFAULT_CACHE_TTLS
  return {
    auth: auth.state,
    // Writes are committed before WhatsApp hears of what they record (a receipt, a send).
    beforeFrame: () => auth.commit(),
    msgRetryCounterCache: caches.cache(ttl.MSG_RETRY),
    userDevicesCache: caches.cache(ttl.USER_DEVICES),
    callOfferCache: caches.cache(ttl.CALL_OFFER),
    placeholderResendCache: caches.cache(ttl.MSG_RETRY),
    logger: settings.logger,
    waWebSocketUrl: target.waWebSocketUrl,
    agent: target.agent,
    fetchAgent: target.fetchAgent,
    version,
    keepAliveIntervalMs: timing.keepAliveIntervalMs,
    markOnlineOnConnect: false,
    // Baileys reads only the bootstrap and push names itself (history-sync.ts); a session with
    // history reads the rest through the engine's streamed reader (history/read-history.ts).
    shouldSyncHistoryMessage: shouldSyncHistory,
    syncFullHistory: settings.history !== undefined,
    fullSyncDaysLimit: settings.history?.days,
    qrTimeout: timing.qrTimeoutMs,
    defaultQueryTimeoutMs: timing.queryTimeoutMs,
    cachedGroupMetadata: settings.cachedGroupMetadata,
    getMessage: async (key) => {
      const payload = key.id ? settings.storedMessage(key.id) : undefined
      return payload ? proto.Message.decode(payload) : undefined
    },
  }
}
