import type { GroupChange } from '../../engine/whatsapp/port/groups'
import type { UpdateGroupInput } from '../../schemas/group'
import type { GatewayContext } from '../context'
import { groupSession, knownGroup, requireAdmin } from './access'
import { groupFailure } from './failure'
import { storeChange } from './keep'
import { storedGroup } from './store'
import { groupView } from './view'

/**
 * Changes a group's subject, description and settings, one WhatsApp query per field. Settings
 * are for admins; so are subject and description in a restricted group. Checked before the
 * first query, so a refusal changes nothing; a failure after one took says which did.
 */
export async function updateGroup(
  ctx: GatewayContext,
  args: { workspaceId: string; groupId: string; input: UpdateGroupInput },
) {
  const { groupId, input } = args
  const access = await groupSession(ctx, args.workspaceId, input.sessionId)
  const { session, handle } = access
  const group = knownGroup(ctx, session, groupId)
  const change: GroupChange = {
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
    ...(input.description !== undefined ? { description: input.description || null } : {}),
    ...(input.announce !== undefined ? { announce: input.announce } : {}),
    ...(input.restrict !== undefined ? { restrict: input.restrict } : {}),
  }
  if (change.announce !== undefined || change.restrict !== undefined) requireAdmin(session, group, 'change settings')
  if (group.restrict && (change.subject !== undefined || change.description !== undefined))
    requireAdmin(session, group, 'edit the info of this restricted group')

  const applied: GroupChange = {}
  try {
    await handle.groups.change(groupId, change, (field) => Object.assign(applied, { [field]: change[field] }))
  } catch (error) {
    const failure = groupFailure(ctx, access, groupId, error, {
      timeout: 'WhatsApp did not answer in time',
      upstream: 'WhatsApp refused the change',
    })
    if (Object.keys(applied).length > 0) {
      storeChange(ctx, session.id, groupId, applied)
      Object.assign(failure.details, { applied: Object.keys(applied) })
    }
    throw failure
  }
  storeChange(ctx, session.id, groupId, change)
  return groupView(session, storedGroup(ctx.db, session.id, groupId) ?? group)
}
