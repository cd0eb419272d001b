import {
  BufferJSON,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  proto,
  type AuthenticationCreds,
  type CacheStore,
  type AuthenticationState,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys'
import type { Logger } from '../../../logger'
import type { AuthStore } from '../port/auth-store'
import type { LoopFairness } from './loop-fairness'

const serialize = (value: unknown) => JSON.stringify(value, BufferJSON.replacer)
const deserialize = (text: string) => JSON.parse(text, BufferJSON.reviver) as unknown

function loadCreds(store: AuthStore, sessionId: string): AuthenticationCreds | undefined {
  const text = store.readCreds(sessionId)
  return text ? (deserialize(text) as AuthenticationCreds) : undefined
}

/** Keys in the store; every set() is one transaction, so a crash never leaves half a key update. */
function storedKeyStore(
  store: AuthStore,
  sessionId: string,
  writable: () => boolean,
  fairness?: LoopFairness,
): SignalKeyStore {
  return {
    async get(type, ids) {
      const found: { [id: string]: SignalDataTypeMap[typeof type] } = {}
      for (const keyId of ids) {
        const text = store.readKey(sessionId, type, keyId)
        if (text === undefined) continue
        let value = deserialize(text)
        if (type === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value as object)
        found[keyId] = value as SignalDataTypeMap[typeof type]
      }
      return found
    },
    async set(data) {
      await fairness?.breathe() // once per received message: a backlog does not hold the loop
      // A socket that was replaced or stopped (e.g. right after unlinking) writes nothing more.
      if (!writable()) return
      store.atomically(() => {
        for (const [category, entries] of Object.entries(data)) {
          for (const [keyId, value] of Object.entries(entries ?? {})) {
            store.writeKey(sessionId, category, keyId, value == null ? null : serialize(value))
          }
        }
      })
    },
    async clear() {
      store.clear(sessionId)
    },
  }
}

export interface StoredAuthState {
  state: AuthenticationState
  saveCreds(): void
  /** Every write so far made durable (AuthStore.commit). */
  commit(): void
}

/** Key-store cache entries (`type.id`) worth keeping: not pre-keys, hundreds written at once and each read once, if ever. */
export const isCacheableKey = (key: string) => !key.startsWith('pre-key.')

/**
 * Baileys auth state for one session, kept in the auth store (the gateway's SQLite) and cached
 * in memory as Baileys recommends (makeCacheableSignalKeyStore, over the socket's `cache`).
 * Never files. Writes happen only while `writable()` says the socket is the session's current one.
 */
export function storedAuthState(
  store: AuthStore,
  sessionId: string,
  logger: Logger,
  cache: CacheStore,
  writable: () => boolean = () => true,
  fairness?: LoopFairness,
): StoredAuthState {
  const creds = loadCreds(store, sessionId) ?? initAuthCreds()
  const keys = makeCacheableSignalKeyStore(storedKeyStore(store, sessionId, writable, fairness), logger as never, cache)
  return {
    state: { creds, keys },
    saveCreds() {
      if (writable()) store.writeCreds(sessionId, serialize(creds))
    },
    commit: () => store.commit(),
  }
}
