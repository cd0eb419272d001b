import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { listGroupsEndpoint } from './all'
import { createGroupEndpoint } from './create'
import { getGroupEndpoint } from './get'
import { groupInviteEndpoint } from './invite'
import { revokeGroupInviteEndpoint } from './invite-revoke'
import { joinGroupEndpoint } from './join'
import { leaveGroupEndpoint } from './leave'
import { groupParticipantsEndpoint } from './participants'
import { updateGroupEndpoint } from './update'

/** One line per route file. `/v1/group/all`, `/create` and `/join` come before `/v1/group/{groupId}`. */
export const groupRoutes = (ctx: GatewayContext) =>
  createRouter()
    .route('/', listGroupsEndpoint(ctx))
    .route('/', createGroupEndpoint(ctx))
    .route('/', joinGroupEndpoint(ctx))
    .route('/', getGroupEndpoint(ctx))
    .route('/', updateGroupEndpoint(ctx))
    .route('/', groupParticipantsEndpoint(ctx))
    .route('/', groupInviteEndpoint(ctx))
    .route('/', revokeGroupInviteEndpoint(ctx))
    .route('/', leaveGroupEndpoint(ctx))
