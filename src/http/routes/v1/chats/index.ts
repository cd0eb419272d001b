import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { listChatsEndpoint } from './all'
import { presenceEndpoint } from './presence'
import { chatReadEndpoint } from './read'

/** One line per route file. */
export const chatRoutes = (ctx: GatewayContext) =>
  createRouter().route('/', listChatsEndpoint(ctx)).route('/', chatReadEndpoint(ctx)).route('/', presenceEndpoint(ctx))
