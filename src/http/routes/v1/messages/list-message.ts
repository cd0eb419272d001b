import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema, SendListBody } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { sendMessage } from '../../../../services/messages/send'
import { createRouter } from '../../../router'
import { IdempotencyHeaders, SEND_ERRORS, SENT_DESCRIPTION } from './send-common'

export const sendListRoute = createRoute({
  operationId: 'sendList',
  method: 'post',
  path: '/v1/message/list',
  tags: ['Messages'],
  summary: 'Send an interactive list (paid plans)',
  description: 'A native-flow list message: at most 5 rows across all sections. Paid plans only (403 plan_required).',
  security: bearerSecurity,
  request: { headers: IdempotencyHeaders, body: jsonBody(SendListBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, SENT_DESCRIPTION),
    ...errorResponses([...SEND_ERRORS, 'plan_required' as const]),
  },
})

export const sendListEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(sendListRoute, async (c) => {
    const record = await sendMessage(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: { kind: 'list', ...c.req.valid('json') },
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    return c.json(record, 200)
  })
