import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { deleteMessageEndpoint, deleteMessageRoute } from './delete'
import { editMessageEndpoint, editMessageRoute } from './edit'
import { getMessageEndpoint, getMessageRoute } from './get'
import { getMessageMediaEndpoint, getMessageMediaRoute } from './media'
import { listMessagesEndpoint, listMessagesRoute } from './all'
import { reactMessageEndpoint, reactMessageRoute } from './reaction'
import { sendAudioEndpoint, sendAudioRoute } from './audio'
import { sendButtonsEndpoint, sendButtonsRoute } from './buttons'
import { sendContactEndpoint, sendContactRoute } from './contact'
import { sendDocumentEndpoint, sendDocumentRoute } from './document'
import { sendImageEndpoint, sendImageRoute } from './image'
import { sendListEndpoint, sendListRoute } from './list-message'
import { sendLocationEndpoint, sendLocationRoute } from './location'
import { sendPollEndpoint, sendPollRoute } from './poll'
import { sendStickerEndpoint, sendStickerRoute } from './sticker'
import { sendTextEndpoint, sendTextRoute } from './text'
import { sendVideoEndpoint, sendVideoRoute } from './video'

/** One line per route, in serving order: `/v1/message/all` comes before `/v1/message/{messageId}`. */
export const messageEndpoints = [
  endpoint(sendTextRoute, sendTextEndpoint),
  endpoint(sendImageRoute, sendImageEndpoint),
  endpoint(sendAudioRoute, sendAudioEndpoint),
  endpoint(sendStickerRoute, sendStickerEndpoint),
  endpoint(sendVideoRoute, sendVideoEndpoint),
  endpoint(sendDocumentRoute, sendDocumentEndpoint),
  endpoint(sendContactRoute, sendContactEndpoint),
  endpoint(sendLocationRoute, sendLocationEndpoint),
  endpoint(sendListRoute, sendListEndpoint),
  endpoint(sendButtonsRoute, sendButtonsEndpoint),
  endpoint(sendPollRoute, sendPollEndpoint),
  endpoint(reactMessageRoute, reactMessageEndpoint),
  endpoint(editMessageRoute, editMessageEndpoint),
  endpoint(deleteMessageRoute, deleteMessageEndpoint),
  endpoint(listMessagesRoute, listMessagesEndpoint),
  endpoint(getMessageRoute, getMessageEndpoint),
  endpoint(getMessageMediaRoute, getMessageMediaEndpoint),
] as const

export const messageRoutes = (ctx: GatewayContext) => serveAll(ctx, messageEndpoints)
