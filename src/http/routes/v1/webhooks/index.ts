import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inQuery, inWorkspace } from '../../session-locator'
import { listDeliveriesEndpoint, listDeliveriesRoute } from './list'
import { replayEndpoint, replayRoute } from './replay'
import { retryDeliveryEndpoint, retryDeliveryRoute } from './retry'
import { createWorkspaceWebhookEndpoint, createWorkspaceWebhookRoute } from './subscriptions-create'
import { deleteWorkspaceWebhookEndpoint, deleteWorkspaceWebhookRoute } from './subscriptions-delete'
import { listWorkspaceWebhooksEndpoint, listWorkspaceWebhooksRoute } from './subscriptions-list'
import { updateWorkspaceWebhookEndpoint, updateWorkspaceWebhookRoute } from './subscriptions-update'

/** One line per route, in serving order. */
export const webhookEndpoints = [
  endpoint(listDeliveriesRoute, inQuery('sessionId'), listDeliveriesEndpoint),
  endpoint(retryDeliveryRoute, inQuery('sessionId'), retryDeliveryEndpoint),
  endpoint(replayRoute, inBody('sessionId'), replayEndpoint),
  // After the literal paths above (`deliveries`, `replay`), which `{webhookId}` would not shadow anyway (other methods).
  endpoint(createWorkspaceWebhookRoute, inWorkspace, createWorkspaceWebhookEndpoint),
  endpoint(listWorkspaceWebhooksRoute, inWorkspace, listWorkspaceWebhooksEndpoint),
  endpoint(updateWorkspaceWebhookRoute, inWorkspace, updateWorkspaceWebhookEndpoint),
  endpoint(deleteWorkspaceWebhookRoute, inWorkspace, deleteWorkspaceWebhookEndpoint),
] as const

export const webhookRoutes = (ctx: GatewayContext) => serveAll(ctx, webhookEndpoints)
