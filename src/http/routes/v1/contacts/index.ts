import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { blockContactEndpoint } from './block'
import { blockedContactsEndpoint } from './blocked'
import { checkContactsEndpoint } from './check'
import { contactProfileEndpoint } from './profile'
import { unblockContactEndpoint } from './unblock'

/** One line per route file. */
export const contactRoutes = (ctx: GatewayContext) =>
  createRouter()
    .route('/', checkContactsEndpoint(ctx))
    .route('/', blockedContactsEndpoint(ctx))
    .route('/', contactProfileEndpoint(ctx))
    .route('/', blockContactEndpoint(ctx))
    .route('/', unblockContactEndpoint(ctx))
