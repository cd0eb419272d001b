import type { CreateGroupInput } from '../../schemas/group'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { groupSession, refuseOwnNumber } from './access'
import { storeGroup } from './keep'
import { distinctDigits, resultsAsSent } from './outcomes'
import { groupView } from './view'

/**
 * Creates a group with whoever WhatsApp can add, in one query: each participant gets a result
 * (a number not on WhatsApp, or whose privacy refuses being added, is reported, not an error).
 * The group is in the store when this answers; group.joined follows from WhatsApp's notification.
 */
export async function createGroup(
  ctx: GatewayContext,
  { workspaceId, input }: { workspaceId: string; input: CreateGroupInput },
) {
  const access = await groupSession(ctx, workspaceId, input.sessionId)
  const { session, handle } = access
  refuseOwnNumber(session, input.participants, 'participants', 'WhatsApp adds the creator itself')
  let created: Awaited<ReturnType<typeof handle.groups.create>>
  try {
    created = await handle.groups.create(input.subject, distinctDigits(input.participants))
  } catch (error) {
    throw engineFailure(error, {
      timeout:
        'WhatsApp did not answer the create in time: the group may exist; a group.joined event and GET /v1/group/all tell',
      upstream: 'WhatsApp refused to create the group',
      not_connected: 'The session went offline before WhatsApp answered; the group may exist',
    })
  }
  storeGroup(ctx, session.id, created.group)
  ctx.logger.info({ sessionId: session.id, groupId: created.group.jid }, 'group created')
  return {
    group: groupView(session, created.group),
    participants: resultsAsSent(input.participants, created.outcomes, 'add'),
  }
}
