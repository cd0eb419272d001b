import type { GatewayContext } from '../context'
import { groupSession, knownGroup } from './access'
import { groupFailure } from './failure'
import { unstoreGroup } from './keep'

/** Leaves a group; it leaves the store at once, and group.left follows from WhatsApp's notification. */
export async function leaveGroup(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; groupId: string },
) {
  const access = await groupSession(ctx, args.workspaceId, args.sessionId)
  const group = knownGroup(ctx, access.session, args.groupId)
  try {
    await access.handle.groups.leave(group.jid)
  } catch (error) {
    throw groupFailure(ctx, access, group.jid, error, {
      timeout: 'WhatsApp did not answer in time; the account may have left (a group.left event tells)',
      upstream: 'WhatsApp refused to let the account leave',
    })
  }
  unstoreGroup(ctx, access.session.id, group.jid)
  return { groupId: group.jid, left: true as const }
}
