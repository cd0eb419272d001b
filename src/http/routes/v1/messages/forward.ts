import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { ForwardMessageBody, ForwardMessageParams } from '../../../../schemas/forward'
import { MessageRecordSchema } from '../../../../schemas/message-record'
import type { GatewayContext } from '../../../../services/context'
import { sendMessage } from '../../../../services/messages/send/send'
import { createRouter } from '../../../router'
import { SEND_ERRORS } from '../error-lists'
import { IdempotencyHeaders } from './send-common'

export const forwardMessageRoute = createRoute({
  operationId: 'forwardMessage',
  method: 'post',
  path: '/v1/message/{messageId}/forward',
  tags: ['Messages'],
  summary: 'Forward a recorded message to a chat',
  description:
    'Sends a message of this session again (sent or received, any chat) to a number, a group (`<id>@g.us`) or a LID, marked as forwarded. A file goes with the upload WhatsApp already has: nothing is downloaded or uploaded again. A deleted or view-once message, a poll, an interactive message or a reply to one is 409 message_not_editable; a message id this session does not have is 404. Answers the new record, a send like any other (Idempotency-Key, pacing, receipts). `to` is accepted for `phone`.',
  security: bearerSecurity,
  request: { params: ForwardMessageParams, headers: IdempotencyHeaders, body: jsonBody(ForwardMessageBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, 'The new record: status `pending` (handed to WhatsApp) or later'),
    ...errorResponses([...SEND_ERRORS, 'message_not_editable']),
  },
})

export const forwardMessageEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(forwardMessageRoute, async (c) =>
    c.json(
      await sendMessage(ctx, {
        workspaceId: c.get('workspace').id,
        plan: c.get('plan'),
        input: { kind: 'forward', ...c.req.valid('json'), messageId: c.req.valid('param').messageId },
        idempotencyKey: c.req.valid('header')['idempotency-key'],
      }),
      200,
    ),
  )
