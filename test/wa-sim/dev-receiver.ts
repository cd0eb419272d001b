/**
 * The webhook receiver of `npm run dev:sim`: a loopback endpoint that prints every event the
 * gateway delivers, after verifying its Standard Webhooks signature with the session's current
 * secret (read from the dev database, as a real receiver would hold it), so a session connected
 * with its URL shows what a webhook consumer gets.
 */
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import type { GatewayDatabase } from '../../src/db/database'
import { sessions } from '../../src/db/schema'
import { startLoopbackServer } from '../support/loopback-server'

export interface DevReceiver {
  url: string
  close(): Promise<void>
}

/** One line per delivery: what it is, and whether its signature holds. */
export function describeDelivery(
  body: string,
  headers: Record<string, string>,
  secretOf: (sessionId: string) => string | undefined,
): string {
  let event: { type?: string; sessionId?: string; data?: Record<string, unknown> }
  try {
    event = JSON.parse(body)
  } catch {
    return `webhook ✗ not JSON (${body.length} bytes)`
  }
  const secret = event.sessionId ? secretOf(event.sessionId) : undefined
  let verdict = 'no such session'
  if (secret) {
    try {
      new Webhook(secret).verify(body, headers)
      verdict = 'signature ok'
    } catch (error) {
      verdict = `BAD SIGNATURE (${(error as Error).message})`
    }
  }
  const data = JSON.stringify(event.data ?? {})
  return `webhook ${verdict.startsWith('signature') ? '✓' : '✗'} ${event.type} ${event.sessionId} ${verdict} ${data.length > 300 ? `${data.slice(0, 300)}…` : data}`
}

export async function startDevReceiver(db: GatewayDatabase, print: (line: string) => void): Promise<DevReceiver> {
  const secretOf = (sessionId: string) =>
    db.select({ secret: sessions.webhookSecret }).from(sessions).where(eq(sessions.id, sessionId)).get()?.secret
  const server = await startLoopbackServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]))
      print(describeDelivery(Buffer.concat(chunks).toString('utf8'), headers, secretOf))
      response.writeHead(204).end()
    })
  })
  return { url: server.url('/hook'), close: server.close }
}
