import type { GatewayContext } from '../context'
import { groupSession, knownGroup } from './access'
import { adminGroupIds, storedGroupList, toInfo } from './store'
import { groupSummaryView, groupView } from './view'

/** The account's groups, from the store: no query to WhatsApp (one was made at login). */
export async function listGroups(ctx: GatewayContext, args: { workspaceId: string; sessionId: string }) {
  const { session } = await groupSession(ctx, args.workspaceId, args.sessionId)
  const admin = adminGroupIds(ctx.db, session.id, session)
  return {
    groups: storedGroupList(ctx.db, session.id).map(({ row, size }) =>
      groupSummaryView(toInfo(row, []), size, admin.has(row.id)),
    ),
  }
}

/** One group with its participants, from the store. */
export async function getGroup(ctx: GatewayContext, args: { workspaceId: string; sessionId: string; groupId: string }) {
  const { session } = await groupSession(ctx, args.workspaceId, args.sessionId)
  return groupView(session, knownGroup(ctx, session, args.groupId))
}
