import { describe, expect, it } from 'vitest'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { newWebhookSecret } from '../../src/webhooks/secret'
import { WebhookSigner } from '../../src/webhooks/signer'

// The signer computes the HMAC itself (node:crypto); the official package is the judge.
describe('webhook signatures', () => {
  const at = new Date()
  // Non-ASCII text: the signed bytes are the body's UTF-8, as the package encodes it
  const body = JSON.stringify({ type: 'message.received', data: { text: 'Olá, señor € 😀 — 你好' } })

  it('signs as the standardwebhooks package does, byte for byte', () => {
    const secret = newWebhookSecret()
    const headers = new WebhookSigner().headers([secret], 'evt_01', at, body)
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('evt_01', at, body))
    expect(headers['webhook-id']).toBe('evt_01')
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)))
  })

  it('carries one signature per secret, each verifiable by its holder alone', () => {
    const current = newWebhookSecret()
    const previous = newWebhookSecret()
    const signer = new WebhookSigner()
    const headers = signer.headers([current, previous], 'evt_02', at, body)
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2)
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body))
    // A cached key serves the next event the same way
    const next = signer.headers([current], 'evt_03', at, body)
    expect(new Webhook(current).verify(body, next)).toEqual(JSON.parse(body))
  })

  it('does not verify under another secret or for another body', () => {
    const secret = newWebhookSecret()
    const headers = new WebhookSigner().headers([secret], 'evt_04', at, body)
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError)
    expect(() => new Webhook(secret).verify(body.replace('Olá', 'Ola'), headers)).toThrow(WebhookVerificationError)
  })

  it('refuses a damaged secret, as the package does, rather than sign with part of it', () => {
    for (const secret of ['whsec_not base64!', 'whsec_', 'whsec_abc', 'whsec_ab$d', `whsec_${'A'.repeat(31)}=x`]) {
      expect(() => new Webhook(secret).sign('evt_05', at, body)).toThrow()
      expect(() => new WebhookSigner().headers([secret], 'evt_05', at, body)).toThrow()
    }
  })
})
