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
import { and, eq, inArray } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { waAuth } from '../../db/schema'
import type { Logger } from '../../logger'
import { clearAuthState, CREDS, credsText } from './credentials'

const serialize = (value: unknown) => JSON.stringify(value, BufferJSON.replacer)
const deserialize = (text: string) => JSON.parse(text, BufferJSON.reviver) as unknown

function loadCreds(db: GatewayDatabase, sessionId: string): AuthenticationCreds | undefined {
  const text = credsText(db, sessionId)
  return text ? (deserialize(text) as AuthenticationCreds) : undefined
}

/** Keys in SQLite; every set() is one transaction, so a crash never leaves half a key update. */
function sqliteKeyStore(db: GatewayDatabase, sessionId: string, writable: () => boolean): SignalKeyStore {
  return {
    async get(type, ids) {
      if (ids.length === 0) return {}
      const rows = db
        .select({ keyId: waAuth.keyId, value: waAuth.value })
        .from(waAuth)
        .where(and(eq(waAuth.sessionId, sessionId), eq(waAuth.category, type), inArray(waAuth.keyId, ids)))
        .all()
      const found: { [id: string]: SignalDataTypeMap[typeof type] } = {}
      for (const row of rows) {
        let value = deserialize(row.value)
        if (type === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value as object)
        found[row.keyId] = value as SignalDataTypeMap[typeof type]
      }
      return found
    },
    async set(data) {
      // A socket that was replaced or stopped (e.g. right after unlinking) writes nothing more.
      if (!writable()) return
      db.transaction((tx) => {
        for (const [category, entries] of Object.entries(data)) {
          for (const [keyId, value] of Object.entries(entries ?? {})) {
            const where = and(eq(waAuth.sessionId, sessionId), eq(waAuth.category, category), eq(waAuth.keyId, keyId))
            if (value == null) tx.delete(waAuth).where(where).run()
            else
              tx.insert(waAuth)
                .values({ sessionId, category, keyId, value: serialize(value) })
                .onConflictDoUpdate({ target: [waAuth.sessionId, waAuth.category, waAuth.keyId], set: { value: serialize(value) } })
                .run()
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
export const cachesKey = (key: string) => !key.startsWith('pre-key.')

/**
 * Baileys auth state for one session, stored in SQLite and cached in memory as Baileys
 * recommends (makeCacheableSignalKeyStore, over the socket's `cache`). Never files. Writes
 * happen only while `writable()` says the socket is the session's current one.
 */
export function sqliteAuthState(db: GatewayDatabase, sessionId: string, logger: Logger, cache: CacheStore, writable: () => boolean = () => true): SqliteAuthState {
  const creds = loadCreds(db, sessionId) ?? initAuthCreds()
  const keys = makeCacheableSignalKeyStore(sqliteKeyStore(db, sessionId, writable), logger as never, cache)
  return {
    state: { creds, keys },
    saveCreds() {
      if (!writable()) return
      db.insert(waAuth)
        .values({ sessionId, category: CREDS, keyId: '', value: serialize(creds) })
        .onConflictDoUpdate({ target: [waAuth.sessionId, waAuth.category, waAuth.keyId], set: { value: serialize(creds) } })
        .run()
    },
  }
}
