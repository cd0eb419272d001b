import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { verifySignature } from '../../../integrations/n8n/nodes/WaSessionGatewayTrigger/signature'

const secret = () => `whsec_${randomBytes(24).toString('base64')}`
const body = Buffer.from('{"type":"message.received","eventId":"evt_1"}')
const now = 1_800_000_000

/** The trigger's own Standard Webhooks check against the official package the gateway signs with. */
describe('the trigger’s signature check', () => {
  const signedBy = (key: string, at = now, id = 'evt_1') => ({
    'webhook-id': id,
    'webhook-timestamp': String(at),
    'webhook-signature': new Webhook(key).sign(id, new Date(at * 1000), body.toString()),
  })

  it('accepts what the official package signs, also as one of two signatures during a rotation', () => {
    const mine = secret()
    expect(verifySignature(mine, signedBy(mine), body, now)).toEqual({ ok: true, id: 'evt_1' })
    const rotated = `${signedBy(secret())['webhook-signature']} ${signedBy(mine)['webhook-signature']}`
    expect(verifySignature(mine, { ...signedBy(mine), 'webhook-signature': rotated }, body, now).ok).toBe(true)
  })

  it('refuses another secret, another id, another body, a stale or future or malformed timestamp, other versions and missing headers', () => {
    const mine = secret()
    const headers = signedBy(mine)
    const passes = (h: Record<string, unknown>, b = body, at = now) => verifySignature(mine, h, b, at).ok
    expect(passes(signedBy(secret()))).toBe(false)
    expect(passes({ ...headers, 'webhook-id': 'evt_2' })).toBe(false)
    expect(passes(headers, Buffer.from(`${body} `))).toBe(false)
    expect(passes(headers, body, now + 301)).toBe(false)
    expect(passes(headers, body, now - 301)).toBe(false)
    expect(passes({ ...headers, 'webhook-timestamp': `${now}.5` })).toBe(false)
    expect(passes({ ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') })).toBe(false)
    expect(passes({ ...headers, 'webhook-signature': 'v1,' })).toBe(false)
    expect(passes({ 'webhook-id': 'evt_1', 'webhook-timestamp': String(now) })).toBe(false)
    expect(passes(headers, body, now + 300)).toBe(true)
  })
})
