import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { LabelChatBody, LabelChatResponse, LabelIdParam } from '../../../../schemas/label'
import type { GatewayContext } from '../../../../services/context'
import { setChatLabel } from '../../../../services/labels/associate'
import { createRouter } from '../../../router'
import { LABEL_ERRORS } from '../error-lists'

export const addChatLabelRoute = createRoute({
  operationId: 'addChatLabel',
  method: 'post',
  path: '/v1/label/{labelId}/chat',
  tags: ['Labels'],
  summary: 'Put a label on a chat',
  description:
    '`phone`: a number, `<digits>@lid` or a group id. Idempotent; a `label.association` event follows a change. The chat list shows the chat’s labels.',
  security: bearerSecurity,
  request: { params: LabelIdParam, body: jsonBody(LabelChatBody) },
  responses: {
    200: jsonResponse(LabelChatResponse, 'The chat carries the label'),
    ...errorResponses(LABEL_ERRORS),
  },
})

export const addChatLabelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(addChatLabelRoute, async (c) => {
    const { sessionId, phone } = c.req.valid('json')
    const { labelId } = c.req.valid('param')
    const workspaceId = c.get('workspace').id
    return c.json(await setChatLabel(ctx, { workspaceId, sessionId, labelId, phone, labeled: true }), 200)
  })
