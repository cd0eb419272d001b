import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { DeleteMessageBody, DeleteMessageResponse } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { deleteMessage } from '../../../../services/messages/change/delete'
import { createRouter } from '../../../router'
import { MESSAGE_CHANGE_ERRORS } from '../error-lists'

export const deleteMessageRoute = createRoute({
  operationId: 'deleteMessage',
  method: 'post',
  path: '/v1/message/delete',
  tags: ['Messages'],
  summary: 'Delete a message for everyone',
  description:
    'Revokes one of this session’s own messages for everyone; its record becomes `deleted`. Deleting it again answers success without sending. `id` and `to` are accepted for `messageId` and `phone`.',
  security: bearerSecurity,
  request: { body: jsonBody(DeleteMessageBody) },
  responses: {
    200: jsonResponse(DeleteMessageResponse, 'Whether the message is deleted'),
    ...errorResponses(MESSAGE_CHANGE_ERRORS),
  },
})

export const deleteMessageEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(deleteMessageRoute, async (c) =>
    c.json(await deleteMessage(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
