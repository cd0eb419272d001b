import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { describeDelivery } from '../dev-receiver'
import { bin, spawnProcess, type Spawned } from '../../support/process'
import { tempDir } from '../../support/temp-dir'
import { Webhook } from 'standardwebhooks'

/**
 * `npm run dev:sim` as a new user runs it: the banner's curl connects a session whose webhook is
 * the dev receiver (which prints each event, signature checked), its panel URL serves the panel,
 * and its simulated-contact curl, run as printed, makes a message arrive. `--no-autoscan` leaves
 * the QR to the user: the session waits until the printed scan command is run.
 */
describe('npm run dev:sim', () => {
  const dir = tempDir('dev-sim-')
  const started: Spawned[] = []
  afterAll(async () => {
    for (const dev of started) await dev.stop()
    dir.cleanup()
  })

  /** Starts dev:sim and reads its banner: the API base, key, panel URL and the commands it shows. */
  async function startDevSim(name: string, args: string[] = []) {
    const dev = spawnProcess(bin('tsx'), ['test/wa-sim/dev.ts', ...args], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: `${dir.path}/${name}.db`,
      LOG_LEVEL: 'warn',
    })
    started.push(dev)
    const connectLine = await dev.waitForLine(
      /-d '\{"sessionName":"demo","webhookUrl":"http:\/\/127\.0\.0\.1:\d+\/hook"\}'/,
      30_000,
    )
    const writeLine = await dev.waitForLine(/^ {2}curl .*\/contacts\/\d+\/messages /)
    const banner = dev.output()
    const base = /SIMULATOR \(not WhatsApp\): (http:\/\/localhost:\d+)$/m.exec(banner)![1]!
    const key = /API key \(workspace "default", paid plan\): (wag_\w+)$/m.exec(banner)![1]!
    const connect = async () => {
      const response = await fetch(`${base}/v1/session/connect`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: /-d '(.*)'/.exec(connectLine)![1]!,
      })
      expect(response.status).toBe(200)
      return ((await response.json()) as { sessionId: string }).sessionId
    }
    return { dev, banner, base, key, connect, writeCommand: writeLine.trim() }
  }

  /** Runs a command the banner printed, as its reader would paste it into a shell. */
  const run = (command: string) => {
    const ran = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 20_000 })
    expect(ran.status, ran.stderr).toBe(0)
    return JSON.parse(ran.stdout) as Record<string, unknown>
  }

  const connectedLine = (sessionId: string) =>
    new RegExp(`webhook ✓ session.status ${sessionId} signature ok .*"status":"connected"`)

  it('connects with the printed curl, names the panel, and its contact command makes a message arrive', async () => {
    const { dev, banner, base, key, connect, writeCommand } = await startDevSim('autoscan')
    expect(banner).toContain(`Panel: ${base}/panel`)
    const panel = await fetch(`${base}/panel`)
    expect(panel.status).toBe(200)
    expect(panel.headers.get('content-type')).toMatch(/^text\/html/)
    expect(banner).toContain('The simulated phone scans every QR by itself')

    const sessionId = await connect()
    // The simulated phone scans by itself; the receiver prints the status events it verified.
    await dev.waitForLine(connectedLine(sessionId), 30_000)
    const linked = await dev.waitForLine(new RegExp(`${sessionId} is linked to the simulated phone (\\d+)`))
    const phone = /phone (\d+)/.exec(linked)![1]!

    expect(run(writeCommand)).toMatchObject({ messageId: expect.any(String) })
    await dev.waitForLine(
      new RegExp(`webhook ✓ message.received ${sessionId} signature ok .*Hello from a simulated contact`),
      20_000,
    )
    const messages = await fetch(`${base}/v1/message/all?sessionId=${sessionId}`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(JSON.stringify(await messages.json())).toContain('Hello from a simulated contact')
    // The line printed at linking names the account, for when several are linked.
    expect(dev.output()).toContain(`"to":"${phone}"`)
    expect(dev.output()).not.toMatch(/webhook ✗/)
  }, 90_000)

  it('--no-autoscan: the session waits for the user, who scans with the printed command', async () => {
    const { dev, banner, base, key, connect } = await startDevSim('manual', ['--no-autoscan'])
    expect(banner).toContain('--no-autoscan: no QR is scanned until you do')
    const sessionId = await connect()
    const qrLine = await dev.waitForLine(new RegExp(`QR of ${sessionId} \\(until the next one\\): curl `), 30_000)
    const status = async () =>
      (
        (await (await fetch(`${base}/v1/session/all`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
          sessions: { sessionId: string; status: string }[]
        }
      ).sessions.find((s) => s.sessionId === sessionId)?.status
    // A scan by the simulator would have linked it by now (the autoscan test sees that in ~1 s).
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(await status()).toBe('pending')

    expect(run(qrLine.slice(qrLine.indexOf('curl ')))).toMatchObject({ phone: expect.any(String) })
    await dev.waitForLine(connectedLine(sessionId), 30_000)
    expect(await status()).toBe('connected')
  }, 90_000)
})

describe('the dev receiver’s line for a delivery', () => {
  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`
  const body = JSON.stringify({ type: 'session.qr', sessionId: 'ses_1', data: { qr: 'x' } })
  const signed = new Webhook(secret).sign('msg_1', new Date(), body)
  const headers = {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': signed,
  }

  it('says the signature holds with the session’s secret', () => {
    expect(describeDelivery(body, headers, () => secret)).toMatch(/^webhook ✓ session.qr ses_1 signature ok/)
  })

  it('says so when it does not, when the session is unknown, or the body is not JSON', () => {
    const other = `whsec_${Buffer.alloc(24, 9).toString('base64')}`
    expect(describeDelivery(body, headers, () => other)).toMatch(/^webhook ✗ session.qr ses_1 BAD SIGNATURE/)
    expect(describeDelivery(body, headers, () => undefined)).toMatch(/^webhook ✗ session.qr ses_1 no such session/)
    expect(describeDelivery('{oops', headers, () => secret)).toMatch(/^webhook ✗ not JSON/)
  })
})
