import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { EditMessageBody } from '../../../../schemas/message'
import { MessageRecordSchema } from '../../../../schemas/message-record'
import type { GatewayContext } from '../../../../services/context'
import { editMessage } from '../../../../services/messages/change/edit'
import { createRouter } from '../../../router'
import { MESSAGE_CHANGE_ERRORS } from '../error-lists'

export const editMessageRoute = createRoute({
  operationId: 'editMessage',
  method: 'post',
  path: '/v1/message/edit',
  tags: ['Messages'],
  summary: 'Edit a text message sent earlier',
  description:
    'Only this session’s own text messages, within WhatsApp’s 15-minute edit window (otherwise 409 message_not_editable). Answers the original record with its new content. `id` and `to` are accepted for `messageId` and `phone`.',
  security: bearerSecurity,
  request: { body: jsonBody(EditMessageBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, 'The original record with its new content'),
    ...errorResponses(MESSAGE_CHANGE_ERRORS),
  },
})

export const editMessageEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(editMessageRoute, async (c) =>
    c.json(await editMessage(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
