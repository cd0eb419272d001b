/**
 * `npm run dev:sim`: the simulator and the gateway in one process, to try every endpoint with
 * curl and no phone. The simulated phone scans every QR the gateway shows, contacts are
 * registered, receipts come back by themselves. WhatsApp itself is never contacted.
 */
import { rmSync } from 'node:fs'
import { runGateway } from '../../src/cli/serve'
import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/logger'
import { createApiKey } from '../../src/services/api-keys'
import { createWorkspace } from '../../src/services/workspaces'
import { ControlApi } from './control-api'
import { startDevReceiver, type DevReceiver } from './dev-receiver'
import { WhatsAppSimulator } from './simulator'

const CONTACTS = ['15551230001', '15551230002', '15551230003']

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
      const { phone } = sim.scan(qr)
      logger.info({ sessionId, phone }, 'dev:sim: the simulated phone scanned the QR')
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
process.stdout.write(`
  Gateway on the WhatsApp SIMULATOR (not WhatsApp): ${base}   docs: ${base}/docs
  Simulator control API: ${control.url}
  API key (workspace "default", paid plan): ${key}
  Contacts on the simulated network: ${CONTACTS.join(', ')}
  Webhook receiver (prints each event it gets, signature checked): ${receiver?.url}

  curl -s -X POST ${base}/v1/session/connect -H "authorization: Bearer ${key}" \\
    -H 'content-type: application/json' -d '{"sessionName":"demo","webhookUrl":"${receiver?.url}"}'

`)
