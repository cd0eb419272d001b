import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { DeleteMessageResponse } from '../../../../schemas/message'
import { DeleteStatusBody } from '../../../../schemas/status'
import type { GatewayContext } from '../../../../services/context'
import { deleteMessage } from '../../../../services/messages/change/delete'
import { createRouter } from '../../../router'
import { MESSAGE_CHANGE_ERRORS } from '../error-lists'

export const deleteStatusRoute = createRoute({
  operationId: 'deleteStatus',
  method: 'post',
  path: '/v1/status/delete',
  tags: ['Status'],
  summary: 'Delete a status',
  description:
    'Takes down a status this session posted, for everyone it was shown to; its record becomes `deleted`. Deleting it again answers success without sending.',
  security: bearerSecurity,
  request: { body: jsonBody(DeleteStatusBody) },
  responses: {
    200: jsonResponse(DeleteMessageResponse, 'Whether the status is deleted'),
    ...errorResponses(MESSAGE_CHANGE_ERRORS),
  },
})

export const deleteStatusEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(deleteStatusRoute, async (c) =>
    c.json(await deleteMessage(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
