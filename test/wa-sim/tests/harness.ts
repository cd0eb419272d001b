// Drives real Baileys sessions against a simulator for the tests: in-memory auth state, connect,
// and the QR pairing dance.
import makeWASocket, { BufferJSON, initAuthCreds, makeCacheableSignalKeyStore, proto } from '@whiskeysockets/baileys'
import type {
  AuthenticationCreds,
  ConnectionState,
  SignalDataTypeMap,
  SignalKeyStore,
  UserFacingSocketConfig,
  WASocket,
} from '@whiskeysockets/baileys'
import P from 'pino'
import { simulatorBaileysOptions } from '../baileys-options'
import type { WhatsAppSimulator } from '../simulator'
import type { ScanOptions } from '../pairing'

export const silent = P({ level: 'silent' })

export interface AuthStore {
  creds: AuthenticationCreds
  keys: SignalKeyStore
}

/** What a SQLite-backed store does, minus the file: every value round-trips through BufferJSON. */
export const memoryAuth = (): AuthStore => {
  const data = new Map<string, string>()
  const keys: SignalKeyStore = {
    get: async (type, ids) =>
      Object.fromEntries(
        ids.map((id) => {
          const raw = data.get(`${type}:${id}`)
          let value = raw ? JSON.parse(raw, BufferJSON.reviver) : undefined
          if (value && type === 'app-state-sync-key') value = proto.Message.AppStateSyncKeyData.fromObject(value)
          return [id, value]
        }),
      ) as { [id: string]: SignalDataTypeMap[typeof type] },
    set: async (update) => {
      for (const [type, entries] of Object.entries(update)) {
        for (const [id, value] of Object.entries(entries ?? {})) {
          if (value) data.set(`${type}:${id}`, JSON.stringify(value, BufferJSON.replacer))
          else data.delete(`${type}:${id}`)
        }
      }
    },
  }
  return { creds: initAuthCreds(), keys }
}

export interface Outcome {
  sock: WASocket
  open: boolean
  code?: number
  message?: string
}

export const openSocket = (
  sim: WhatsAppSimulator,
  auth: AuthStore,
  extra: Partial<UserFacingSocketConfig> = {},
  onQr?: (qr: string, sock: WASocket) => void,
  /** Called with the socket as soon as it exists, before any event: to listen from the start */
  onSocket?: (sock: WASocket) => void,
): Promise<Outcome> =>
  new Promise((resolve) => {
    const sock = makeWASocket({
      ...simulatorBaileysOptions(sim.config),
      auth: { creds: auth.creds, keys: makeCacheableSignalKeyStore(auth.keys, silent) },
      logger: silent,
      markOnlineOnConnect: false,
      // History sync on a first connect buffers events until the (never-coming) history arrives
      shouldSyncHistoryMessage: () => false,
      ...extra,
    })
    onSocket?.(sock)
    sock.ev.on('creds.update', (update) => Object.assign(auth.creds, update))
    sock.ev.on('connection.update', (update: Partial<ConnectionState>) => {
      if (update.qr) onQr?.(update.qr, sock)
      if (update.connection === 'open') resolve({ sock, open: true })
      if (update.connection === 'close') {
        const error = update.lastDisconnect?.error as { output?: { statusCode?: number }; message?: string } | undefined
        resolve({ sock, open: false, code: error?.output?.statusCode, message: error?.message })
      }
    })
  })

/** Resolves with the next close of an open socket. */
export const nextClose = (sock: WASocket): Promise<{ code?: number; message?: string }> =>
  new Promise((resolve) => {
    sock.ev.on('connection.update', (update) => {
      if (update.connection !== 'close') return
      const error = update.lastDisconnect?.error as { output?: { statusCode?: number }; message?: string } | undefined
      resolve({ code: error?.output?.statusCode, message: error?.message })
    })
  })

/** QR pairing: scan the first QR, expect the 515 restart, reconnect with the stored credentials. */
export const pairByQr = async (
  sim: WhatsAppSimulator,
  phone?: string,
  extra: Partial<UserFacingSocketConfig> = {},
  scan: ScanOptions = {},
): Promise<{ sock: WASocket; auth: AuthStore; phone: string; firstClose?: number }> => {
  const auth = memoryAuth()
  let linked: string | undefined
  const first = await openSocket(sim, auth, extra, (qr) => {
    if (!linked) linked = sim.scan(qr, phone, scan).phone
  })
  if (first.open) throw new Error('expected the 515 restart after pairing')
  const second = await openSocket(sim, auth, extra)
  if (!second.open) throw new Error(`login after pairing failed: ${second.code} ${second.message}`)
  return { sock: second.sock, auth, phone: linked ?? '', firstClose: first.code }
}

export const closeSocket = (sock: WASocket | undefined): void => {
  sock?.end(undefined)
}
