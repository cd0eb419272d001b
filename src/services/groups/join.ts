import { EngineError } from '../../engine/whatsapp/port'
import { GatewayError } from '../../errors'
import type { JoinGroupInput } from '../../schemas/group'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { groupSession } from './access'
import { storeGroup } from './keep'
import { storedGroup } from './store'
import { groupView } from './view'

/**
 * Joins the group an invite link opens and answers it (one more query reads it whole; the
 * group.joined event follows from WhatsApp's notification). Already in it: answered the same.
 */
export async function joinGroup(
  ctx: GatewayContext,
  { workspaceId, input }: { workspaceId: string; input: JoinGroupInput },
) {
  const { session, handle } = await groupSession(ctx, workspaceId, input.sessionId)
  let groupId: string
  try {
    groupId = await handle.groups.join(input.code)
  } catch (error) {
    // 406 not-acceptable: no group has this code; 410 gone: an admin reset the link
    if (error instanceof EngineError && error.kind === 'refused' && (error.code === 406 || error.code === 410)) {
      throw new GatewayError(
        'not_found',
        error.code === 410 ? 'This invite link was reset by the group’s admins' : 'No group has this invite code',
      )
    }
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer in time; the account may have joined (a group.joined event tells)',
      upstream: 'WhatsApp refused to join the group',
      not_connected: 'The session went offline before WhatsApp answered',
    })
  }
  try {
    storeGroup(ctx, session.id, await handle.groups.info(groupId))
  } catch (error) {
    ctx.logger.warn({ err: error, groupId }, 'joined a group but could not read it; its notification fills the store')
  }
  const group = storedGroup(ctx.db, session.id, groupId)
  if (!group)
    throw new GatewayError('upstream_error', `Joined group ${groupId}, but WhatsApp did not describe it yet`, {
      groupId,
    })
  return groupView(session, group)
}
