import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { getWorkspaceEndpoint, getWorkspaceRoute } from './get'

/** One line per route. */
export const workspaceEndpoints = [endpoint(getWorkspaceRoute, getWorkspaceEndpoint)] as const

export const workspaceRoutes = (ctx: GatewayContext) => serveAll(ctx, workspaceEndpoints)
