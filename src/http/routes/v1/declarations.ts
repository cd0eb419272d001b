import type { RouteConfig } from '@hono/zod-openapi'
import { listChatsRoute } from './chats/all'
import { presenceRoute } from './chats/presence'
import { chatReadRoute } from './chats/read'
import { blockContactRoute } from './contacts/block'
import { blockedContactsRoute } from './contacts/blocked'
import { checkContactsRoute } from './contacts/check'
import { contactProfileRoute } from './contacts/profile'
import { unblockContactRoute } from './contacts/unblock'
import { eventStreamRoute } from './events/stream'
import { listGroupsRoute } from './groups/all'
import { createGroupRoute } from './groups/create'
import { getGroupRoute } from './groups/get'
import { groupInviteRoute } from './groups/invite'
import { revokeGroupInviteRoute } from './groups/invite-revoke'
import { joinGroupRoute } from './groups/join'
import { leaveGroupRoute } from './groups/leave'
import { groupParticipantsRoute } from './groups/participants'
import { updateGroupRoute } from './groups/update'
import { listMessagesRoute } from './messages/all'
import { sendAudioRoute } from './messages/audio'
import { sendButtonsRoute } from './messages/buttons'
import { sendContactRoute } from './messages/contact'
import { deleteMessageRoute } from './messages/delete'
import { sendDocumentRoute } from './messages/document'
import { editMessageRoute } from './messages/edit'
import { getMessageRoute } from './messages/get'
import { getMessageMediaRoute } from './messages/media'
import { sendImageRoute } from './messages/image'
import { sendListRoute } from './messages/list-message'
import { sendLocationRoute } from './messages/location'
import { sendPollRoute } from './messages/poll'
import { reactMessageRoute } from './messages/reaction'
import { sendStickerRoute } from './messages/sticker'
import { sendTextRoute } from './messages/text'
import { sendVideoRoute } from './messages/video'
import { connectSessionRoute } from './sessions/connect'
import { disconnectSessionRoute } from './sessions/disconnect'
import { listSessionsRoute } from './sessions/list'
import { updateOwnProfileRoute } from './sessions/profile'
import { sessionQrRoute } from './sessions/qr'
import { restartSessionRoute } from './sessions/restart'
import { updateSessionRoute } from './sessions/update'
import { listDeliveriesRoute } from './webhooks/list'
import { replayRoute } from './webhooks/replay'
import { retryDeliveryRoute } from './webhooks/retry'
import { getWorkspaceRoute } from './workspace/get'

/**
 * Every workspace /v1 route's declaration (its createRoute object), without handlers and in the
 * order v1Routes serves them: what the edge Worker routes by and builds its OpenAPI document
 * from, where no gateway context exists. test/http/routes/v1/declarations.test.ts holds it equal
 * to what v1Routes serves, so a route added there and not here fails a test.
 */
export const v1Declarations: readonly RouteConfig[] = [
  connectSessionRoute,
  listSessionsRoute,
  updateSessionRoute,
  disconnectSessionRoute,
  restartSessionRoute,
  sessionQrRoute,
  updateOwnProfileRoute,
  sendTextRoute,
  sendImageRoute,
  sendAudioRoute,
  sendStickerRoute,
  sendVideoRoute,
  sendDocumentRoute,
  sendContactRoute,
  sendLocationRoute,
  sendListRoute,
  sendButtonsRoute,
  sendPollRoute,
  reactMessageRoute,
  editMessageRoute,
  deleteMessageRoute,
  listMessagesRoute,
  getMessageRoute,
  getMessageMediaRoute,
  listChatsRoute,
  chatReadRoute,
  presenceRoute,
  checkContactsRoute,
  blockedContactsRoute,
  contactProfileRoute,
  blockContactRoute,
  unblockContactRoute,
  getWorkspaceRoute,
  listDeliveriesRoute,
  retryDeliveryRoute,
  replayRoute,
  eventStreamRoute,
  listGroupsRoute,
  createGroupRoute,
  joinGroupRoute,
  getGroupRoute,
  updateGroupRoute,
  groupParticipantsRoute,
  groupInviteRoute,
  revokeGroupInviteRoute,
  leaveGroupRoute,
]
