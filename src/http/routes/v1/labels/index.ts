import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inQuery } from '../../session-locator'
import { listLabelsEndpoint, listLabelsRoute } from './all'
import { addChatLabelEndpoint, addChatLabelRoute } from './chat-add'
import { removeChatLabelEndpoint, removeChatLabelRoute } from './chat-remove'
import { createLabelEndpoint, createLabelRoute } from './create'
import { deleteLabelEndpoint, deleteLabelRoute } from './delete'
import { addMessageLabelEndpoint, addMessageLabelRoute } from './message-add'
import { removeMessageLabelEndpoint, removeMessageLabelRoute } from './message-remove'
import { updateLabelEndpoint, updateLabelRoute } from './update'

/** One line per route, in serving order (`/v1/label/all` before `/v1/label/{labelId}`). */
export const labelEndpoints = [
  endpoint(listLabelsRoute, inQuery('sessionId'), listLabelsEndpoint),
  endpoint(createLabelRoute, inBody('sessionId'), createLabelEndpoint),
  endpoint(updateLabelRoute, inBody('sessionId'), updateLabelEndpoint),
  endpoint(deleteLabelRoute, inQuery('sessionId'), deleteLabelEndpoint),
  endpoint(addChatLabelRoute, inBody('sessionId'), addChatLabelEndpoint),
  endpoint(removeChatLabelRoute, inQuery('sessionId'), removeChatLabelEndpoint),
  endpoint(addMessageLabelRoute, inBody('sessionId'), addMessageLabelEndpoint),
  endpoint(removeMessageLabelRoute, inQuery('sessionId'), removeMessageLabelEndpoint),
] as const

export const labelRoutes = (ctx: GatewayContext) => serveAll(ctx, labelEndpoints)
