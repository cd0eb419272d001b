import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inQuery } from '../../session-locator'
import { deleteMessageEndpoint, deleteMessageRoute } from './delete'
import { editMessageEndpoint, editMessageRoute } from './edit'
import { forwardMessageEndpoint, forwardMessageRoute } from './forward'
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
  endpoint(sendTextRoute, inBody('sessionId'), sendTextEndpoint),
  endpoint(sendImageRoute, inBody('sessionId'), sendImageEndpoint),
  endpoint(sendAudioRoute, inBody('sessionId'), sendAudioEndpoint),
  endpoint(sendStickerRoute, inBody('sessionId'), sendStickerEndpoint),
  endpoint(sendVideoRoute, inBody('sessionId'), sendVideoEndpoint),
  endpoint(sendDocumentRoute, inBody('sessionId'), sendDocumentEndpoint),
  endpoint(sendContactRoute, inBody('sessionId'), sendContactEndpoint),
  endpoint(sendLocationRoute, inBody('sessionId'), sendLocationEndpoint),
  endpoint(sendListRoute, inBody('sessionId'), sendListEndpoint),
  endpoint(sendButtonsRoute, inBody('sessionId'), sendButtonsEndpoint),
  endpoint(sendPollRoute, inBody('sessionId'), sendPollEndpoint),
  endpoint(reactMessageRoute, inBody('sessionId'), reactMessageEndpoint),
  endpoint(editMessageRoute, inBody('sessionId'), editMessageEndpoint),
  endpoint(deleteMessageRoute, inBody('sessionId'), deleteMessageEndpoint),
  endpoint(forwardMessageRoute, inBody('sessionId'), forwardMessageEndpoint),
  endpoint(listMessagesRoute, inQuery('sessionId'), listMessagesEndpoint),
  endpoint(getMessageRoute, inQuery('sessionId'), getMessageEndpoint),
  endpoint(getMessageMediaRoute, inQuery('sessionId'), getMessageMediaEndpoint),
] as const

export const messageRoutes = (ctx: GatewayContext) => serveAll(ctx, messageEndpoints)
