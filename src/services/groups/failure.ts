import { EngineError } from '../../engine/whatsapp/port'
import type { GroupInfo } from '../../engine/whatsapp/port/groups'
import { GatewayError } from '../../errors'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import type { GroupSession } from './access'
import { storeGroup, unstoreGroup } from './keep'

/**
 * The API error for a group request WhatsApp did not carry out, and what the store learns from
 * it. The store said the account may do it (access.ts checked), so a refusal means the store
 * missed a change: 401 not-authorized (demoted) is 403 forbidden and the group is read again;
 * 403 forbidden (no longer in it) and 404 (gone) are 404 and the group leaves the store.
 */
export function groupFailure(
  ctx: GatewayContext,
  { session, handle }: GroupSession,
  groupId: string,
  error: unknown,
  words: { timeout: string; upstream: string },
): GatewayError {
  if (error instanceof EngineError && error.kind === 'refused' && error.code === 401) {
    handle.groups.info(groupId).then(
      (group: GroupInfo) => storeGroup(ctx, session.id, group),
      (reason: unknown) => ctx.logger.warn({ err: reason, groupId }, 'could not read a group again'),
    )
    return new GatewayError('forbidden', `WhatsApp says the account is not an admin of group ${groupId}`, { groupId })
  }
  const gone =
    error instanceof EngineError && (error.kind === 'not_found' || (error.kind === 'refused' && error.code === 403))
  if (gone) {
    unstoreGroup(ctx, session.id, groupId)
    return new GatewayError('not_found', `WhatsApp says the account is not in group ${groupId} (any more)`, { groupId })
  }
  return engineFailure(error, { ...words, not_connected: 'The session went offline before WhatsApp answered' })
}
