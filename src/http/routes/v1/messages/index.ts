import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { sendAudioEndpoint } from './audio'
import { sendButtonsEndpoint } from './buttons'
import { sendContactEndpoint } from './contact'
import { deleteMessageEndpoint } from './delete'
import { sendDocumentEndpoint } from './document'
import { editMessageEndpoint } from './edit'
import { getMessageEndpoint } from './get'
import { getMessageMediaEndpoint } from './media'
import { sendImageEndpoint } from './image'
import { listMessagesEndpoint } from './all'
import { sendListEndpoint } from './list-message'
import { sendLocationEndpoint } from './location'
import { sendPollEndpoint } from './poll'
import { reactMessageEndpoint } from './reaction'
import { sendStickerEndpoint } from './sticker'
import { sendTextEndpoint } from './text'
import { sendVideoEndpoint } from './video'

/** One line per route file. `/v1/message/all` comes before `/v1/message/{messageId}`. */
export const messageRoutes = (ctx: GatewayContext) =>
  createRouter()
    .route('/', sendTextEndpoint(ctx))
    .route('/', sendImageEndpoint(ctx))
    .route('/', sendAudioEndpoint(ctx))
    .route('/', sendStickerEndpoint(ctx))
    .route('/', sendVideoEndpoint(ctx))
    .route('/', sendDocumentEndpoint(ctx))
    .route('/', sendContactEndpoint(ctx))
    .route('/', sendLocationEndpoint(ctx))
    .route('/', sendListEndpoint(ctx))
    .route('/', sendButtonsEndpoint(ctx))
    .route('/', sendPollEndpoint(ctx))
    .route('/', reactMessageEndpoint(ctx))
    .route('/', editMessageEndpoint(ctx))
    .route('/', deleteMessageEndpoint(ctx))
    .route('/', listMessagesEndpoint(ctx))
    .route('/', getMessageEndpoint(ctx))
    .route('/', getMessageMediaEndpoint(ctx))
