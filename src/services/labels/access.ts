import { and, eq } from 'drizzle-orm'
import { labels, type Session } from '../../db/schema'
import type { SessionHandle } from '../../engine/whatsapp/port'
import { GatewayError, notFound } from '../../errors'
import type { GatewayContext, ServiceContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'

/** What the caller is told when WhatsApp fails a label change; the change may not have applied. */
export const labelFailure = (error: unknown, what: string) =>
  engineFailure(error, {
    timeout: `WhatsApp did not confirm ${what} in time (it may still apply: GET /v1/label/all tells)`,
    upstream: `WhatsApp refused ${what}`,
    not_connected: `The session went offline; ${what} was not made`,
  })

/**
 * A connected business session whose device holds the app-state key: what every label change
 * needs. A personal account is 409 not_business_account (only WhatsApp Business has labels).
 */
export async function labelSession(
  ctx: GatewayContext,
  workspaceId: string,
  sessionId: string,
): Promise<{ session: Session; handle: SessionHandle }> {
  const session = findSession(ctx, workspaceId, sessionId)
  const handle = connectedHandle(ctx, session)
  let business: boolean
  try {
    business = await handle.labels.isBusiness()
  } catch (error) {
    throw labelFailure(error, 'the account type query')
  }
  if (!business)
    throw new GatewayError(
      'not_business_account',
      'Labels are a WhatsApp Business feature and this session’s account is a personal one; nothing was changed',
    )
  if (!handle.labels.canEdit)
    throw new GatewayError(
      'upstream_error',
      'WhatsApp has not given this session the key for the account’s app state yet (the phone sends it shortly after linking); labels cannot change until then. Nothing was changed; try again later.',
      { reason: 'no_app_state_key' },
    )
  return { session, handle }
}

/** A label of the session as the gateway keeps it, or 404. */
export function findLabel(ctx: ServiceContext, sessionId: string, labelId: string) {
  const label = ctx.db
    .select()
    .from(labels)
    .where(and(eq(labels.sessionId, sessionId), eq(labels.id, labelId)))
    .get()
  if (!label) throw notFound(`Label ${labelId}`)
  return label
}

export const labelView = (label: { id: string; name: string; color: number; predefinedId: string | null }) => ({
  id: label.id,
  name: label.name,
  color: label.color,
  predefinedId: label.predefinedId,
})
