/**
 * Memory per connected session in local workerd: `npx tsx test/edge/memory.ts [sessions=20]`.
 * Starts the simulator and `wrangler dev`, connects one session (Baileys loaded, isolate warm),
 * then N more, each in its own session object, and reports workerd's RSS before and after.
 */
import { pollUntil } from '../support/poll'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { tempDir } from '../support/temp-dir'
import { edgeJwt, freePort, startWranglerDev } from './wrangler-dev'
import { setTimeout as sleep } from 'node:timers/promises'

const count = Number(process.argv[2] ?? 20)
const secret = 'memory-probe-secret-0123456789abcdef'
const sim = await WhatsAppSimulator.start({ contacts: ['15551230001'], autoReceipts: true })
const control = await ControlApi.start(sim)
const state = tempDir('edge-memory-')
const dev = await startWranglerDev({
  port: await freePort(),
  persistDir: state.path,
  env: { WA_SIMULATOR: control.url, JWT_SECRET: secret, LOG_LEVEL: 'error' },
})
const token = await edgeJwt(secret, 'memory', 'paid')
const settle = () => sleep(5_000)

async function connect(i: number): Promise<void> {
  const response = await fetch(`${dev.url}/v1/session/connect`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ sessionName: `m${i}`, webhookUrl: 'https://hooks.invalid/wa' }),
  })
  const body = (await response.json()) as { qrCode: string }
  if (response.status !== 200) throw new Error(JSON.stringify(body))
  const phone = `1555020${String(i).padStart(4, '0')}`
  sim.scan(body.qrCode, phone)
  await sim.waitForAccount(phone)
  await pollUntil(
    () => sim.account(phone).online,
    (online) => online,
    { timeoutMs: 10_000, intervalMs: 50, what: `${phone} online` },
  )
}

try {
  await connect(0)
  await settle()
  const before = dev.workerdRss()
  for (let i = 1; i <= count; i++) await connect(i)
  await settle()
  const after = dev.workerdRss()
  const online = sim.accounts().filter((a) => a.online).length
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
  console.log(
    JSON.stringify({
      sessionsOnline: online,
      rssWithOneMiB: mib(before),
      rssAfterMiB: mib(after),
      perSessionMiB: mib((after - before) / count),
    }),
  )
} finally {
  await dev.stop()
  await control.stop()
  await sim.stop()
  state.cleanup()
}
