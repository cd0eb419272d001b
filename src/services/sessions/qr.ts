import { and, desc, eq, inArray } from 'drizzle-orm'
import { webhookEvents } from '../../db/schema'
import { GatewayError } from '../../errors'
import type { ServiceContext } from '../context'
import { findSession } from './view'

export interface CurrentQr {
  sessionId: string
  qrCode: string
  /** When WhatsApp offered it; it is replaced every 20 to 60 s while the pairing lasts. */
  createdAt: string
}

/**
 * The QR a pending session shows now: the newest `session.qr` event of its outbox, which every
 * QR WhatsApp offers is written to (so it needs no state of its own and reads the same in every
 * process), unless the status event that began this pairing is newer. A session that is not
 * pairing has none: 404.
 */
export function currentQr(
  ctx: ServiceContext,
  { workspaceId, sessionId }: { workspaceId: string; sessionId: string },
): CurrentQr {
  const session = findSession(ctx, workspaceId, sessionId)
  if (session.status !== 'pending') {
    throw new GatewayError('not_found', `Session "${sessionId}" is ${session.status}: it has no QR code to scan`, {
      status: session.status,
    })
  }
  const event = ctx.db
    .select({ type: webhookEvents.type, body: webhookEvents.body, createdAt: webhookEvents.createdAt })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.sessionId, sessionId), inArray(webhookEvents.type, ['session.qr', 'session.status'])))
    .orderBy(desc(webhookEvents.sequence))
    .limit(1)
    .get()
  // The pairing began with a status event; QR events older than it belong to an earlier pairing.
  if (event?.type !== 'session.qr') {
    throw new GatewayError('not_found', `Session "${sessionId}" has no QR code yet`, { status: session.status })
  }
  const qr = (JSON.parse(event.body) as { data: { qr: string } }).data.qr
  return { sessionId, qrCode: qr, createdAt: event.createdAt.toISOString() }
}
