import { createRoute } from '@hono/zod-openapi'
import { adminSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { KeyParam, RevokedKeySchema } from '../../../../schemas/admin'
import { revokeApiKey } from '../../../../services/api-keys'
import type { ServiceContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const revokeKeyRoute = createRoute({
  operationId: 'adminRevokeApiKey',
  method: 'delete',
  path: '/v1/admin/keys/{keyId}',
  tags: ['Admin'],
  summary: 'Revoke an API key (as `key revoke` on the CLI); revoking twice is fine',
  security: adminSecurity,
  request: { params: KeyParam },
  responses: {
    200: jsonResponse(RevokedKeySchema, 'The key no longer authenticates'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const revokeKeyEndpoint = (ctx: ServiceContext) =>
  createRouter().openapi(revokeKeyRoute, (c) => {
    const { keyId } = c.req.valid('param')
    revokeApiKey(ctx, { id: keyId })
    return c.json({ keyId, revoked: true as const }, 200)
  })
