import type { ServiceContext } from '../../../../services/context'
import { adminAuth } from '../../../middleware/admin-auth'
import { jsonBody, METHODS_WITH_JSON } from '../../../middleware/json-body'
import { rateLimit } from '../../../middleware/rate-limit'
import { createRouter } from '../../../router'
import { endpoint, serveAll } from '../../endpoint'
import { inWorkspace } from '../../session-locator'
import { createKeyEndpoint, createKeyRoute } from './keys-create'
import { listKeysEndpoint, listKeysRoute } from './keys-list'
import { revokeKeyEndpoint, revokeKeyRoute } from './keys-revoke'
import { createWorkspaceEndpoint, createWorkspaceRoute } from './workspaces-create'
import { listWorkspacesEndpoint, listWorkspacesRoute } from './workspaces-list'
import { setWorkspacePlanEndpoint, setWorkspacePlanRoute } from './workspaces-plan'

/** One line per route, in serving order (about workspaces, never one session). Not in the document unless ADMIN_API_KEY is set. */
export const adminEndpoints = [
  endpoint(createWorkspaceRoute, inWorkspace, createWorkspaceEndpoint),
  endpoint(listWorkspacesRoute, inWorkspace, listWorkspacesEndpoint),
  endpoint(setWorkspacePlanRoute, inWorkspace, setWorkspacePlanEndpoint),
  endpoint(createKeyRoute, inWorkspace, createKeyEndpoint),
  endpoint(listKeysRoute, inWorkspace, listKeysEndpoint),
  endpoint(revokeKeyRoute, inWorkspace, revokeKeyEndpoint),
] as const

/**
 * Provisioning over HTTP for the operator's own systems: the CLI's workspace and key commands,
 * behind ADMIN_API_KEY. Mounted only when that key is set (see http/app.ts), and before the
 * workspace routes, so a workspace credential never reaches these handlers.
 */
export function adminRoutes(ctx: ServiceContext, adminApiKey: string) {
  const admin = createRouter()
  admin.use('/v1/admin/*', adminAuth(adminApiKey))
  // /v1's limit, counted for the admin key on its own; after auth, so wrong keys get no counter.
  admin.use('/v1/admin/*', rateLimit(ctx.config.rateLimitPerMinute))
  admin.on(METHODS_WITH_JSON, '/v1/admin/*', jsonBody())
  return admin.route('/', serveAll(ctx, adminEndpoints))
}
