/**
 * `npm run dev:sim`: the simulator and the gateway in one process, to try every endpoint with
 * curl and no phone. The simulated phone scans every QR the gateway shows (`--no-autoscan`
 * leaves that to the user, through the simulator's control API), contacts are registered,
 * receipts come back by themselves. WhatsApp itself is never contacted.
 */
import { rmSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { runGateway } from '../../src/cli/serve'
import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/logger'
import { createApiKey } from '../../src/services/api-keys'
import { createWorkspace } from '../../src/services/workspaces'
import { ControlApi } from './control-api'
import { startDevReceiver, type DevReceiver } from './dev-receiver'
import { WhatsAppSimulator } from './simulator'

const CONTACTS = ['15551230001', '15551230002', '15551230003']
const { values: options } = parseArgs({ options: { 'no-autoscan': { type: 'boolean', default: false } } })
const autoscan = !options['no-autoscan']

const sim = await WhatsAppSimulator.start({ autoReceipts: true, contacts: CONTACTS })
const control = await ControlApi.start(sim, Number(process.env.SIM_CONTROL_PORT ?? 0))
// Something for GET /v1/contact/{phone}/profile to show: an about, and a business
sim.setProfile(CONTACTS[0]!, { name: 'Ada (simulated)', about: 'Hey there! I am using the simulator.' })
sim.setProfile(CONTACTS[1]!, {
  name: 'Sim Bikes',
  about: 'Open every day',
  business: { description: 'A simulated bicycle shop', category: 'Bicycle Shop', website: 'https://example.com' },
})

// The simulator forgets everything when it stops, so a dev database from an earlier run would
// only hold sessions it no longer knows: start from a fresh file every time.
const databasePath = process.env.DATABASE_PATH ?? './data/dev-sim.db'
for (const suffix of ['', '-wal', '-shm']) rmSync(`${databasePath}${suffix}`, { force: true })

const config = {
  ...loadConfig({ ...process.env, DATABASE_PATH: databasePath }),
  simulatorUrl: control.url,
  webhookAllowHttp: true,
  allowPrivateAddresses: true,
}
const logger = createLogger(config.logLevel)
let key = ''
let receiver: DevReceiver | undefined
const { server } = await runGateway({
  config,
  logger,
  async prepare(gateway) {
    receiver = await startDevReceiver(gateway.context.db, (line) => process.stdout.write(`${line}\n`))
    gateway.context.events.on('session.qr', ({ sessionId, qr }) => {
      if (!autoscan) return void say(`QR of ${sessionId} (until the next one): ${scanCommand(qr)}`)
      const { phone } = sim.scan(qr)
      logger.info({ sessionId, phone }, 'dev:sim: the simulated phone scanned the QR')
      say(
        `${sessionId} is linked to the simulated phone ${phone}; a contact writes to it with:\n  ${writeCommand(phone)}`,
      )
    })
    createWorkspace(gateway.context, { name: 'default', plan: 'paid' })
    key = createApiKey(gateway.context, { workspace: 'default' }).key
  },
  async cleanup() {
    await receiver?.close()
    await control.stop()
    await sim.stop()
  },
})

const base = `http://localhost:${server.port}`
const scanning = autoscan
  ? '  The simulated phone scans every QR by itself (--no-autoscan: you do).'
  : `  --no-autoscan: no QR is scanned until you do. Each QR is printed with its command; or pass the
  qrCode of connect or of GET /v1/session/{id}/qr to the simulated phone yourself:
  ${scanCommand('<qrCode>')}`
process.stdout.write(`
  Gateway on the WhatsApp SIMULATOR (not WhatsApp): ${base}
  Panel: ${base}/panel (sign in with the API key)   API docs: ${base}/docs
  API key (workspace "default", paid plan): ${key}
  Simulator control API: ${control.url}
  Contacts on the simulated network: ${CONTACTS.join(', ')}
  Webhook receiver (prints each event it gets, signature checked): ${receiver?.url}

  Connect a session (or use the panel):
  curl -s -X POST ${base}/v1/session/connect -H "authorization: Bearer ${key}" \\
    -H 'content-type: application/json' -d '{"sessionName":"demo","webhookUrl":"${receiver?.url}"}'

${scanning}

  A simulated contact writes to the linked session (with several linked, add "to":"<its phone>"):
  ${writeCommand()}

`)

/** Prints a line for the person at the terminal, between the log's lines. */
function say(line: string): void {
  process.stdout.write(`\n  ${line}\n\n`)
}

/** The control API call with which the simulated phone scans `qr` (a QR holds no quote). */
function scanCommand(qr: string): string {
  return `curl -s -X POST ${control.url}/scan -H 'content-type: application/json' -d '${JSON.stringify({ qr })}'`
}

/** The control API call with which the first contact sends a text, to `to` or the one linked account. */
function writeCommand(to?: string): string {
  const body = JSON.stringify({ ...(to ? { to } : {}), text: 'Hello from a simulated contact' })
  return `curl -s -X POST ${control.url}/contacts/${CONTACTS[0]}/messages -H 'content-type: application/json' -d '${body}'`
}
