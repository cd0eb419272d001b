import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema } from '../../../../schemas/message-record'
import { ReactMessageBody } from '../../../../schemas/reaction'
import type { GatewayContext } from '../../../../services/context'
import { reactToMessage } from '../../../../services/messages/change/react'
import { createRouter } from '../../../router'
import { IdempotencyHeaders } from './send-common'
import { MESSAGE_CHANGE_ERRORS } from '../error-lists'

export const reactMessageRoute = createRoute({
  operationId: 'reactToMessage',
  method: 'post',
  path: '/v1/message/reaction',
  tags: ['Messages'],
  summary: 'React to a message, or remove the reaction',
  description:
    'Any message of the chat, the session’s own or the other party’s (in groups: anyone’s). `emoji: ""` removes the session’s reaction. Answers the reacted record, whose `content.reactions` holds everyone’s current reaction (the session’s own under its number). `id` and `to` are accepted for `messageId` and `phone`.',
  security: bearerSecurity,
  request: { headers: IdempotencyHeaders, body: jsonBody(ReactMessageBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, 'The reacted record, with the session’s reaction in `content.reactions`'),
    ...errorResponses([...MESSAGE_CHANGE_ERRORS, 'idempotency_key_reused']),
  },
})

export const reactMessageEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(reactMessageRoute, async (c) =>
    c.json(
      await reactToMessage(ctx, {
        workspaceId: c.get('workspace').id,
        plan: c.get('plan'),
        input: c.req.valid('json'),
        idempotencyKey: c.req.valid('header')['idempotency-key'],
      }),
      200,
    ),
  )
