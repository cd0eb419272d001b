import { createRoute } from '@hono/zod-openapi'
import { adminSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { CreateKeyBody, IssuedKeySchema } from '../../../../schemas/admin'
import { createApiKey } from '../../../../services/api-keys'
import type { ServiceContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const createKeyRoute = createRoute({
  operationId: 'adminCreateApiKey',
  method: 'post',
  path: '/v1/admin/keys',
  tags: ['Admin'],
  summary: 'Issue an API key for a workspace (as `key create` on the CLI)',
  description: 'The key is in this answer only; the gateway keeps its SHA-256 hash and a display prefix.',
  security: adminSecurity,
  request: { body: jsonBody(CreateKeyBody) },
  responses: {
    201: jsonResponse(IssuedKeySchema, 'The new key, shown once'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const createKeyEndpoint = (ctx: ServiceContext) =>
  createRouter().openapi(createKeyRoute, (c) => {
    const { id, workspaceId, prefix, key } = createApiKey(ctx, c.req.valid('json'))
    // A secret in the body: no cache may keep it.
    c.header('cache-control', 'no-store')
    return c.json({ keyId: id, workspaceId, prefix, key }, 201)
  })
