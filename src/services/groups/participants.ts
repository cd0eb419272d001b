import type { GroupParticipantsInput } from '../../schemas/group'
import type { GatewayContext } from '../context'
import { groupSession, knownGroup, refuseOwnNumber, requireAdmin } from './access'
import { groupFailure } from './failure'
import { storeOutcomes } from './keep'
import { ownRole } from './self'
import { distinctDigits, resultsAsSent } from './outcomes'

/**
 * Adds, removes, promotes or demotes people in one query, with WhatsApp's result for each.
 * Admins only, except adding where the group lets every member add.
 */
export async function updateParticipants(
  ctx: GatewayContext,
  args: { workspaceId: string; groupId: string; input: GroupParticipantsInput },
) {
  const { input, groupId } = args
  const access = await groupSession(ctx, args.workspaceId, input.sessionId)
  const { session, handle } = access
  const group = knownGroup(ctx, session, groupId)
  refuseOwnNumber(session, input.phones, 'phones', 'the account leaves with POST /v1/group/{groupId}/leave')
  const everyoneAdds = input.action === 'add' && group.memberAddMode && ownRole(session, group.participants) === null
  if (!everyoneAdds) requireAdmin(session, group, `${input.action} participants`)
  let outcomes: Awaited<ReturnType<typeof handle.groups.updateParticipants>>
  try {
    outcomes = await handle.groups.updateParticipants(groupId, input.action, distinctDigits(input.phones))
  } catch (error) {
    throw groupFailure(ctx, access, groupId, error, {
      timeout: `WhatsApp did not answer in time; the participants may have changed (group.participants events tell)`,
      upstream: 'WhatsApp refused the change of participants',
    })
  }
  storeOutcomes(ctx, session.id, groupId, input.action, outcomes)
  return { groupId, action: input.action, results: resultsAsSent(input.phones, outcomes, input.action) }
}
