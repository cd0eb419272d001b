import type { ServiceContext } from '../../../../services/context'
import { adminAuth } from '../../../middleware/admin-auth'
import { jsonBody, METHODS_WITH_JSON } from '../../../middleware/json-body'
import { rateLimit } from '../../../middleware/rate-limit'
import { createRouter } from '../../../router'
import { createKeyEndpoint } from './keys-create'
import { listKeysEndpoint } from './keys-list'
import { revokeKeyEndpoint } from './keys-revoke'
import { createWorkspaceEndpoint } from './workspaces-create'
import { listWorkspacesEndpoint } from './workspaces-list'
import { setWorkspacePlanEndpoint } from './workspaces-plan'

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
  return admin
    .route('/', createWorkspaceEndpoint(ctx))
    .route('/', listWorkspacesEndpoint(ctx))
    .route('/', setWorkspacePlanEndpoint(ctx))
    .route('/', createKeyEndpoint(ctx))
    .route('/', listKeysEndpoint(ctx))
    .route('/', revokeKeyEndpoint(ctx))
}
