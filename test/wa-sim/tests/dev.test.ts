import { afterAll, describe, expect, it } from 'vitest'
import { describeDelivery } from '../dev-receiver'
import { bin, spawnProcess, type Spawned } from '../../support/process'
import { tempDir } from '../../support/temp-dir'
import { Webhook } from 'standardwebhooks'

/**
 * `npm run dev:sim` as a new user runs it: the printed curl command connects a session whose
 * webhook is the dev receiver, and the receiver prints each event it gets, signature checked.
 */
describe('npm run dev:sim', () => {
  const dir = tempDir('dev-sim-')
  let dev: Spawned | undefined
  afterAll(async () => {
    await dev?.stop()
    dir.cleanup()
  })

  it('prints a curl command whose webhook URL receives and verifies every event', async () => {
    dev = spawnProcess(bin('tsx'), ['test/wa-sim/dev.ts'], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: `${dir.path}/dev.db`,
      LOG_LEVEL: 'warn',
    })
    const keyLine = await dev.waitForLine(/API key/, 30_000)
    const key = keyLine.split(': ').pop()!.trim()
    const curl = await dev.waitForLine(/-d '\{"sessionName":"demo","webhookUrl":"http:\/\/127\.0\.0\.1:\d+\/hook"\}'/)
    const body = /-d '(.*)'/.exec(curl)![1]!
    const base = /(http:\/\/localhost:\d+)\s+docs:/.exec(dev.output())![1]!
    const connect = await fetch(`${base}/v1/session/connect`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    })
    expect(connect.status).toBe(200)
    const { sessionId } = (await connect.json()) as { sessionId: string }
    // The simulated phone scans by itself; the receiver prints the status events it verified.
    await dev.waitForLine(
      new RegExp(`webhook ✓ session.status ${sessionId} signature ok .*"status":"connected"`),
      30_000,
    )
    expect(dev.output()).not.toMatch(/webhook ✗/)
  }, 60_000)
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
