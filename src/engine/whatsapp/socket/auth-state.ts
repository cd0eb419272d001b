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
import type { GatewayDatabase } from '../../../db/database'
import type { Logger } from '../../../logger'
import type { AuthStatements } from './auth-statements'
import { clearAuthState, CREDS, credsText } from './credentials'

const serialize = (value: unknown) => JSON.stringify(value, BufferJSON.replacer)
const deserialize = (text: string) => JSON.parse(text, BufferJSON.reviver) as unknown

function loadCreds(db: GatewayDatabase, sessionId: string): AuthenticationCreds | undefined {
  const text = credsText(db, sessionId)
  return text ? (deserialize(text) as AuthenticationCreds) : undefined
}

/** Keys in SQLite; every set() is one transaction, so a crash never leaves half a key update. */
function sqliteKeyStore(
  db: GatewayDatabase,
  statements: AuthStatements,
  sessionId: string,
  writable: () => boolean,
): SignalKeyStore {
  return {
    async get(type, ids) {
      const found: { [id: string]: SignalDataTypeMap[typeof type] } = {}
      for (const keyId of ids) {
        const row = statements.get.get({ sessionId, category: type, keyId })
        if (!row) continue
        let value = deserialize(row.value)
        if (type === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value as object)
        found[keyId] = value as SignalDataTypeMap[typeof type]
      }
      return found
    },
    async set(data) {
      // A socket that was replaced or stopped (e.g. right after unlinking) writes nothing more.
      if (!writable()) return
      db.transaction(() => {
        for (const [category, entries] of Object.entries(data)) {
          for (const [keyId, value] of Object.entries(entries ?? {})) {
            if (value == null) statements.remove.run({ sessionId, category, keyId })
            else statements.upsert.run({ sessionId, category, keyId, value: serialize(value) })
          }
        }
      })
    },
    async clear() {
      clearAuthState(db, sessionId)
    },
  }
}

export interface SqliteAuthState {
  state: AuthenticationState
  saveCreds(): void
}

/** Key-store cache entries (`type.id`) worth keeping: not pre-keys, hundreds written at once and each read once, if ever. */
export const isCacheableKey = (key: string) => !key.startsWith('pre-key.')

/**
 * Baileys auth state for one session, stored in SQLite and cached in memory as Baileys
 * recommends (makeCacheableSignalKeyStore, over the socket's `cache`). Never files. Writes
 * happen only while `writable()` says the socket is the session's current one.
 */
export function sqliteAuthState(
  db: GatewayDatabase,
  statements: AuthStatements,
  sessionId: string,
  logger: Logger,
  cache: CacheStore,
  writable: () => boolean = () => true,
): SqliteAuthState {
  const creds = loadCreds(db, sessionId) ?? initAuthCreds()
  const keys = makeCacheableSignalKeyStore(sqliteKeyStore(db, statements, sessionId, writable), logger as never, cache)
  return {
    state: { creds, keys },
    saveCreds() {
      if (writable()) statements.upsert.run({ sessionId, category: CREDS, keyId: '', value: serialize(creds) })
    },
  }
}
