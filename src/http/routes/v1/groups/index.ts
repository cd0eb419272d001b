import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { createGroupEndpoint, createGroupRoute } from './create'
import { getGroupEndpoint, getGroupRoute } from './get'
import { groupInviteEndpoint, groupInviteRoute } from './invite'
import { groupParticipantsEndpoint, groupParticipantsRoute } from './participants'
import { joinGroupEndpoint, joinGroupRoute } from './join'
import { leaveGroupEndpoint, leaveGroupRoute } from './leave'
import { listGroupsEndpoint, listGroupsRoute } from './all'
import { revokeGroupInviteEndpoint, revokeGroupInviteRoute } from './invite-revoke'
import { updateGroupEndpoint, updateGroupRoute } from './update'

/** One line per route, in serving order: `/v1/group/all`, `/create` and `/join` come before `/v1/group/{groupId}`. */
export const groupEndpoints = [
  endpoint(listGroupsRoute, listGroupsEndpoint),
  endpoint(createGroupRoute, createGroupEndpoint),
  endpoint(joinGroupRoute, joinGroupEndpoint),
  endpoint(getGroupRoute, getGroupEndpoint),
  endpoint(updateGroupRoute, updateGroupEndpoint),
  endpoint(groupParticipantsRoute, groupParticipantsEndpoint),
  endpoint(groupInviteRoute, groupInviteEndpoint),
  endpoint(revokeGroupInviteRoute, revokeGroupInviteEndpoint),
  endpoint(leaveGroupRoute, leaveGroupEndpoint),
] as const

export const groupRoutes = (ctx: GatewayContext) => serveAll(ctx, groupEndpoints)
