import { createHmac } from 'node:crypto'

/** The prefix of a Standard Webhooks secret; what follows is the key, in base64. */
const SECRET_PREFIX = 'whsec_'
/** Padded standard base64, nothing else. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * Standard Webhooks headers for one attempt. Each secret signs (`v1,` + base64 of the
 * HMAC-SHA256 of `id.timestamp.body` under the secret's key, the spec's scheme) and the
 * signatures are joined with spaces, as the spec allows: during a rotation receivers holding
 * either secret can verify. The timestamp is the attempt's, so a receiver's replay-window check
 * passes on retries too; the id is the event's, the same every time.
 *
 * The HMAC is node:crypto's rather than the `standardwebhooks` package's pure-JS SHA-256: a
 * fifth of the cost for a 700-byte event (every delivery signs; bench: inbound msg/s). The
 * package stays the reference: every test receiver verifies these signatures with it.
 */
export class WebhookSigner {
  readonly #keys = new Map<string, Buffer>()

  headers(secrets: readonly string[], eventId: string, at: Date, body: string): Record<string, string> {
    const timestamp = String(Math.floor(at.getTime() / 1000))
    const signature = secrets
      .map(
        (secret) =>
          `v1,${createHmac('sha256', this.#key(secret)).update(`${eventId}.${timestamp}.${body}`).digest('base64')}`,
      )
      .join(' ')
    return {
      'content-type': 'application/json',
      'user-agent': 'wa-session-gateway',
      'webhook-id': eventId,
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
    }
  }

  #key(secret: string): Buffer {
    let key = this.#keys.get(secret)
    if (!key) {
      const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
      // Strict, as the package decodes it: Buffer.from would sign with whatever part of a
      // damaged secret it can read, which no receiver's copy of the secret verifies
      if (!BASE64.test(encoded)) throw new Error('a webhook secret that is not base64')
      key = Buffer.from(encoded, 'base64')
      // Every secret the gateway issues has 24 random bytes; an empty key would sign with nothing
      if (key.length === 0) throw new Error('a webhook secret without a key')
      if (this.#keys.size > 10_000) this.#keys.clear()
      this.#keys.set(secret, key)
    }
    return key
  }
}
