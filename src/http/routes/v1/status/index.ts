import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody } from '../../session-locator'
import { deleteStatusEndpoint, deleteStatusRoute } from './delete'
import { postImageStatusEndpoint, postImageStatusRoute } from './image'
import { postTextStatusEndpoint, postTextStatusRoute } from './text'
import { postVideoStatusEndpoint, postVideoStatusRoute } from './video'

/** One line per route. */
export const statusEndpoints = [
  endpoint(postTextStatusRoute, inBody('sessionId'), postTextStatusEndpoint),
  endpoint(postImageStatusRoute, inBody('sessionId'), postImageStatusEndpoint),
  endpoint(postVideoStatusRoute, inBody('sessionId'), postVideoStatusEndpoint),
  endpoint(deleteStatusRoute, inBody('sessionId'), deleteStatusEndpoint),
] as const

export const statusRoutes = (ctx: GatewayContext) => serveAll(ctx, statusEndpoints)
