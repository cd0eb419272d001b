import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { GetMessageParams, GetMessageQuery } from '../../../../schemas/message'
import { MessageRecordSchema } from '../../../../schemas/message-record'
import type { GatewayContext } from '../../../../services/context'
import { getMessage } from '../../../../services/messages/records/list'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const getMessageRoute = createRoute({
  operationId: 'getMessage',
  method: 'get',
  path: '/v1/message/{messageId}',
  tags: ['Messages'],
  summary: 'One message record',
  security: bearerSecurity,
  request: { params: GetMessageParams, query: GetMessageQuery },
  responses: {
    200: jsonResponse(MessageRecordSchema, 'The record'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const getMessageEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(getMessageRoute, (c) =>
    c.json(
      getMessage(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('query').sessionId,
        messageId: c.req.valid('param').messageId,
      }),
      200,
    ),
  )
