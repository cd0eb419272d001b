import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inQuery } from '../../session-locator'
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
  endpoint(listGroupsRoute, inQuery('sessionId'), listGroupsEndpoint),
  endpoint(createGroupRoute, inBody('sessionId'), createGroupEndpoint),
  endpoint(joinGroupRoute, inBody('sessionId'), joinGroupEndpoint),
  endpoint(getGroupRoute, inQuery('sessionId'), getGroupEndpoint),
  endpoint(updateGroupRoute, inBody('sessionId'), updateGroupEndpoint),
  endpoint(groupParticipantsRoute, inBody('sessionId'), groupParticipantsEndpoint),
  endpoint(groupInviteRoute, inQuery('sessionId'), groupInviteEndpoint),
  endpoint(revokeGroupInviteRoute, inBody('sessionId'), revokeGroupInviteEndpoint),
  endpoint(leaveGroupRoute, inBody('sessionId'), leaveGroupEndpoint),
] as const

export const groupRoutes = (ctx: GatewayContext) => serveAll(ctx, groupEndpoints)
