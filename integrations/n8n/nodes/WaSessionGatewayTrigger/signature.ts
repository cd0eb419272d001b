import { createHmac, timingSafeEqual } from 'node:crypto'

/** How far a delivery's timestamp may be from now: the Standard Webhooks default. */
export const TOLERANCE_SECONDS = 5 * 60

export type Verdict = { ok: true; id: string } | { ok: false; reason: string }

const header = (headers: Record<string, unknown>, name: string) => {
  const value = headers[name]
  return typeof value === 'string' ? value : undefined
}

/**
 * A Standard Webhooks signature check (https://www.standardwebhooks.com): HMAC-SHA256 of
 * `id.timestamp.body` with the secret's bytes, compared in constant time with each `v1,`
 * signature of the header (the gateway sends two while a secret rotates), the timestamp within
 * five minutes of now. Not the official `standardwebhooks` package, which the gateway signs
 * with: n8n Cloud allows community nodes no runtime dependency, and that package, bundled,
 * uses a global n8n's checks forbid. Tests verify both agree.
 */
export function verifySignature(
  secret: string,
  headers: Record<string, unknown>,
  body: Buffer,
  nowSeconds: number,
): Verdict {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing Standard Webhooks headers' }
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'invalid webhook-timestamp' }
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS)
    return { ok: false, reason: 'webhook-timestamp outside the tolerance' }
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  if (key.length === 0) return { ok: false, reason: 'no secret' }
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest()
  for (const signature of signatures.split(' ')) {
    const [version, value] = signature.split(',', 2)
    if (version !== 'v1' || !value) continue
    const given = Buffer.from(value, 'base64')
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true, id }
  }
  return { ok: false, reason: 'no matching signature' }
}
