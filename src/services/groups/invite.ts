import type { GatewayContext } from '../context'
import { groupSession, knownGroup, requireAdmin } from './access'
import { groupFailure } from './failure'

export const INVITE_LINK_PREFIX = 'https://chat.whatsapp.com/'

const inviteView = (groupId: string, inviteCode: string) => ({
  groupId,
  inviteCode,
  inviteLink: `${INVITE_LINK_PREFIX}${inviteCode}`,
})

/** The group's invite link (admins only); `revoke` resets it, and the old link stops working. */
export async function groupInvite(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; groupId: string; revoke: boolean },
) {
  const access = await groupSession(ctx, args.workspaceId, args.sessionId)
  const group = knownGroup(ctx, access.session, args.groupId)
  requireAdmin(access.session, group, args.revoke ? 'reset the invite link' : 'see the invite link')
  try {
    const code = args.revoke
      ? await access.handle.groups.revokeInvite(group.jid)
      : await access.handle.groups.inviteCode(group.jid)
    return inviteView(group.jid, code)
  } catch (error) {
    throw groupFailure(ctx, access, group.jid, error, {
      timeout: 'WhatsApp did not answer in time',
      upstream: 'WhatsApp refused to give the invite link',
    })
  }
}
