import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inWorkspace } from '../../session-locator'
import { getWorkspaceEndpoint, getWorkspaceRoute } from './get'

/** One line per route. */
export const workspaceEndpoints = [endpoint(getWorkspaceRoute, inWorkspace, getWorkspaceEndpoint)] as const

export const workspaceRoutes = (ctx: GatewayContext) => serveAll(ctx, workspaceEndpoints)
