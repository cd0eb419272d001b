// Standalone simulator: `npm run sim -- --port 8700 [--ws-port 0] [--auto-receipts]
// [--qr-refs 6] [--contacts 15550000001,15550000002] [--log debug]`.
// Prints ONE JSON line ({controlUrl, wsUrl}) on stdout; logs go to stderr.
import { parseArgs } from 'node:util'
import { ControlApi } from './control-api'
import type { LogLevel } from './logger'
import { stderrLogger } from './logger'
import { WhatsAppSimulator } from './simulator'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'ws-port': { type: 'string', default: '0' },
    'auto-receipts': { type: 'boolean', default: false },
    'qr-refs': { type: 'string', default: '6' },
    contacts: { type: 'string', default: '' },
    log: { type: 'string', default: 'info' },
  },
})

const logger = stderrLogger(values.log as LogLevel)
// libsignal writes its own notes to the console ("Closing open session in favor of incoming
// prekey bundle", once per message a contact decrypts before its first answer): silent is silent
if (values.log === 'silent') for (const method of ['log', 'info', 'warn', 'debug'] as const) console[method] = () => {}
const sim = await WhatsAppSimulator.start({
  port: Number(values['ws-port']),
  autoReceipts: values['auto-receipts'],
  qrRefs: Number(values['qr-refs']),
  contacts: values.contacts
    .split(',')
    .map((phone) => phone.trim())
    .filter(Boolean),
  logger,
})
const control = await ControlApi.start(sim, Number(values.port))
process.stdout.write(`${JSON.stringify({ controlUrl: control.url, wsUrl: sim.config.wsUrl })}\n`)
logger.info(`control API ${control.url}, chat ${sim.config.wsUrl}, media https://${sim.config.mediaHost}`)

const shutdown = async (): Promise<void> => {
  await control.stop()
  await sim.stop()
  process.exit(0)
}
process.once('SIGINT', () => void shutdown())
process.once('SIGTERM', () => void shutdown())
