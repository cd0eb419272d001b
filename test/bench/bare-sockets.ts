/**
 * Bare Baileys sockets, no gateway around them, logged in with sessions the gateway linked (its
 * wa_auth rows, read from its SQLite file while the gateway is stopped): the references of the
 * sends and inbound benches. Keys live in a Map as bare-baileys.mjs keeps them; `stop` writes
 * what changed back, so a gateway started again goes on with the same Signal sessions (a ratchet
 * left behind would fail to decrypt at the simulator).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import makeWASocket, {
  BufferJSON,
  proto,
  type AuthenticationCreds,
  type SignalDataTypeMap,
  type SignalKeyStore,
  type WASocket,
} from '@whiskeysockets/baileys'
import { and, eq } from 'drizzle-orm'
import pino from 'pino'
import type { GatewayDatabase } from '../../src/db/database'
import { waAuth } from '../../src/db/schema'

const serialize = (value: unknown) => JSON.stringify(value, BufferJSON.replacer)
const deserialize = (text: string) => JSON.parse(text, BufferJSON.reviver) as unknown

/** One session's keys in memory, and the keys set since they were read (to write back). */
function memoryKeys(rows: { category: string; keyId: string; value: string }[]) {
  const store = new Map<string, unknown>()
  const changed = new Set<string>()
  for (const row of rows) {
    let value = deserialize(row.value)
    if (row.category === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value as object)
    store.set(`${row.category}\u0000${row.keyId}`, value)
  }
  const keys: SignalKeyStore = {
    async get(type, ids) {
      const found: { [id: string]: SignalDataTypeMap[typeof type] } = {}
      for (const id of ids) {
        const value = store.get(`${type}\u0000${id}`)
        if (value !== undefined) found[id] = value as SignalDataTypeMap[typeof type]
      }
      return found
    },
    async set(data) {
      for (const [type, entries] of Object.entries(data))
        for (const [id, value] of Object.entries(entries ?? {})) {
          const key = `${type}\u0000${id}`
          changed.add(key)
          if (value == null) store.delete(key)
          else store.set(key, value)
        }
    },
  }
  return { keys, store, changed }
}

export interface StoredSockets {
  /** One open socket per session id, in the order given. */
  sockets: WASocket[]
  /** Closes the sockets and writes their changed keys and creds back to wa_auth. */
  stop(): Promise<void>
}

/** Opens a socket per session from its stored auth and waits (10 s at most) until all are open. */
export async function openStoredSockets(
  database: GatewayDatabase,
  sessionIds: string[],
  wsUrl: string,
): Promise<StoredSockets> {
  const logger = pino({ level: 'silent' })
  const opened = sessionIds.map((sessionId) => {
    const rows = database.select().from(waAuth).where(eq(waAuth.sessionId, sessionId)).all()
    const credsRow = rows.find((row) => row.category === 'creds' && row.keyId === '')
    if (!credsRow) throw new Error(`session ${sessionId} has no creds row`)
    const creds = deserialize(credsRow.value) as AuthenticationCreds
    const memory = memoryKeys(rows.filter((row) => row !== credsRow))
    // The options of socket-config.ts that touch a send or a receive; the gateway's caches are Baileys' defaults' size.
    const socket = makeWASocket({
      auth: { creds, keys: memory.keys },
      logger: logger as never,
      waWebSocketUrl: wsUrl,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      shouldSyncHistoryMessage: () => false,
    })
    let open = false
    socket.ev.on('connection.update', (update) => {
      if (update.connection === 'open') open = true
    })
    return { sessionId, socket, creds, memory, isOpen: () => open }
  })
  for (let wait = 0; wait < 500 && !opened.every((s) => s.isOpen()); wait++) await sleep(20)
  if (!opened.every((s) => s.isOpen())) throw new Error('bare sockets did not open within 10 s')
  return {
    sockets: opened.map((s) => s.socket),
    async stop() {
      for (const { socket } of opened) socket.end(undefined)
      await sleep(100)
      database.transaction((tx) => {
        for (const { sessionId, creds, memory } of opened) {
          for (const key of memory.changed) {
            const [category, keyId] = key.split('\u0000') as [string, string]
            const value = memory.store.get(key)
            const row = and(eq(waAuth.sessionId, sessionId), eq(waAuth.category, category), eq(waAuth.keyId, keyId))
            if (value === undefined) tx.delete(waAuth).where(row).run()
            else
              tx.insert(waAuth)
                .values({ sessionId, category, keyId, value: serialize(value) })
                .onConflictDoUpdate({
                  target: [waAuth.sessionId, waAuth.category, waAuth.keyId],
                  set: { value: serialize(value) },
                })
                .run()
          }
          tx.update(waAuth)
            .set({ value: serialize(creds) })
            .where(and(eq(waAuth.sessionId, sessionId), eq(waAuth.category, 'creds'), eq(waAuth.keyId, '')))
            .run()
        }
      })
    },
  }
}
