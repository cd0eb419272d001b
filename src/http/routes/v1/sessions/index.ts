import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inPath, inWorkspace } from '../../session-locator'
import { deleteChatwootEndpoint, deleteChatwootRoute } from './chatwoot-delete'
import { getChatwootEndpoint, getChatwootRoute } from './chatwoot-get'
import { putChatwootEndpoint, putChatwootRoute } from './chatwoot-put'
import { connectSessionEndpoint, connectSessionRoute } from './connect'
import { deleteSessionEndpoint, deleteSessionRoute } from './delete'
import { disconnectSessionEndpoint, disconnectSessionRoute } from './disconnect'
import { listSessionsEndpoint, listSessionsRoute } from './list'
import { restartSessionEndpoint, restartSessionRoute } from './restart'
import { sessionQrEndpoint, sessionQrRoute } from './qr'
import { updateOwnProfileEndpoint, updateOwnProfileRoute } from './profile'
import { getPrivacyEndpoint, getPrivacyRoute } from './privacy-get'
import { updatePrivacyEndpoint, updatePrivacyRoute } from './privacy-update'
import { updateSessionEndpoint, updateSessionRoute } from './update'
import { createSessionWebhookEndpoint, createSessionWebhookRoute } from './webhooks-create'
import { deleteSessionWebhookEndpoint, deleteSessionWebhookRoute } from './webhooks-delete'
import { listSessionWebhooksEndpoint, listSessionWebhooksRoute } from './webhooks-list'
import { updateSessionWebhookEndpoint, updateSessionWebhookRoute } from './webhooks-update'

/** One line per route, in serving order: its declaration, where its requests name their session, what serves it. */
export const sessionEndpoints = [
  endpoint(connectSessionRoute, inBody('sessionName'), connectSessionEndpoint),
  endpoint(listSessionsRoute, inWorkspace, listSessionsEndpoint),
  endpoint(updateSessionRoute, inPath('id'), updateSessionEndpoint),
  endpoint(disconnectSessionRoute, inPath('session_id'), disconnectSessionEndpoint),
  endpoint(deleteSessionRoute, inPath('id'), deleteSessionEndpoint),
  endpoint(restartSessionRoute, inPath('id'), restartSessionEndpoint),
  endpoint(sessionQrRoute, inPath('id'), sessionQrEndpoint),
  endpoint(updateOwnProfileRoute, inPath('id'), updateOwnProfileEndpoint),
  endpoint(getPrivacyRoute, inPath('id'), getPrivacyEndpoint),
  endpoint(updatePrivacyRoute, inPath('id'), updatePrivacyEndpoint),
  endpoint(createSessionWebhookRoute, inPath('id'), createSessionWebhookEndpoint),
  endpoint(listSessionWebhooksRoute, inPath('id'), listSessionWebhooksEndpoint),
  endpoint(updateSessionWebhookRoute, inPath('id'), updateSessionWebhookEndpoint),
  endpoint(deleteSessionWebhookRoute, inPath('id'), deleteSessionWebhookEndpoint),
  endpoint(putChatwootRoute, inPath('id'), putChatwootEndpoint),
  endpoint(getChatwootRoute, inPath('id'), getChatwootEndpoint),
  endpoint(deleteChatwootRoute, inPath('id'), deleteChatwootEndpoint),
] as const

export const sessionRoutes = (ctx: GatewayContext) => serveAll(ctx, sessionEndpoints)
