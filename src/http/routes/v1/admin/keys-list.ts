import { createRoute } from '@hono/zod-openapi'
import { adminSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { AdminKeyList, KeyListQuery } from '../../../../schemas/admin'
import { listApiKeys } from '../../../../services/api-keys'
import type { ServiceContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { keyView } from './views'
import { LOOKUP_ERRORS } from '../error-lists'

export const listKeysRoute = createRoute({
  operationId: 'adminListApiKeys',
  method: 'get',
  path: '/v1/admin/keys',
  tags: ['Admin'],
  summary: 'API keys (ids, prefixes, last use; never the keys)',
  security: adminSecurity,
  request: { query: KeyListQuery },
  responses: {
    200: jsonResponse(AdminKeyList, 'The keys, oldest first'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const listKeysEndpoint = (ctx: ServiceContext) =>
  createRouter().openapi(listKeysRoute, (c) =>
    c.json({ keys: listApiKeys(ctx, c.req.valid('query')).map(keyView) }, 200),
  )
