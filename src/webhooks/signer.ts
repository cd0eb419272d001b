import { Webhook } from 'standardwebhooks'

/**
 * Standard Webhooks headers for one attempt. Each secret signs with the official package and
 * the signatures are joined with spaces, as the spec allows: during a rotation receivers
 * holding either secret can verify. The timestamp is the attempt's, so a receiver's
 * replay-window check passes on retries too; the id is the event's, the same every time.
 */
export class WebhookSigner {
  readonly #keys = new Map<string, Webhook>()

  headers(secrets: readonly string[], eventId: string, at: Date, body: string): Record<string, string> {
    const signature = secrets.map((secret) => this.#key(secret).sign(eventId, at, body)).join(' ')
    return {
      'content-type': 'application/json',
      'user-agent': 'wa-session-gateway',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    }
  }

  #key(secret: string): Webhook {
    let key = this.#keys.get(secret)
    if (!key) {
      if (this.#keys.size > 10_000) this.#keys.clear()
      key = new Webhook(secret)
      this.#keys.set(secret, key)
    }
    return key
  }
}
