// Reference: N bare Baileys sockets against the simulator, auth state in memory (creds object,
// keys in a Map), no gateway around them. `node reference/bare-baileys.mjs <controlUrl> <n>`:
// the simulated phone scans each first QR; prints {"msg":"ready","open":n} when all are open.
import { Agent } from 'node:https'
import makeWASocket, { initAuthCreds, WA_CERT_DETAILS } from '@whiskeysockets/baileys'
import pino from 'pino'

const [controlUrl, count] = process.argv.slice(2)
const n = Number(count)
const config = await (await fetch(new URL('/config', controlUrl))).json()
WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(config.rootPublicKey, 'base64')
const fetchAgent = new Agent({ ca: config.mediaCaPem, keepAlive: false })
const logger = pino({ level: 'silent' })

function memoryKeys() {
  const store = new Map()
  return {
    async get(type, ids) {
      const found = {}
      for (const id of ids) {
        const value = store.get(`${type}:${id}`)
        if (value !== undefined) found[id] = value
      }
      return found
    },
    async set(data) {
      for (const [type, entries] of Object.entries(data))
        for (const [id, value] of Object.entries(entries ?? {}))
          value == null ? store.delete(`${type}:${id}`) : store.set(`${type}:${id}`, value)
    },
  }
}

let open = 0
function connect(state) {
  const socket = makeWASocket({
    auth: state,
    logger,
    waWebSocketUrl: config.wsUrl,
    fetchAgent,
    markOnlineOnConnect: false,
    syncFullHistory: false,
    shouldSyncHistoryMessage: () => false,
  })
  let scanned = false
  socket.ev.on('creds.update', () => {})
  socket.ev.on('connection.update', async (update) => {
    if (update.qr && !scanned) {
      scanned = true
      await fetch(new URL('/scan', controlUrl), { method: 'POST', body: JSON.stringify({ qr: update.qr }) })
    }
    if (update.connection === 'open' && ++open === n)
      process.stdout.write(`${JSON.stringify({ msg: 'ready', open })}\n`)
    // After pairing WhatsApp asks for a restart (515): reconnect with the same state.
    if (update.connection === 'close' && update.lastDisconnect?.error?.output?.statusCode === 515) connect(state)
  })
}

for (let i = 0; i < n; i += 10) {
  const batch = Math.min(10, n - i)
  for (let j = 0; j < batch; j++) connect({ creds: initAuthCreds(), keys: memoryKeys() })
  await new Promise((resolve) => setTimeout(resolve, 200))
}
if (n === 0) process.stdout.write(`${JSON.stringify({ msg: 'ready', open: 0 })}\n`)
setInterval(() => {}, 1 << 30) // stay up until the bench stops us
