import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { LabelChatQuery, LabelChatResponse, LabelIdParam } from '../../../../schemas/label'
import type { GatewayContext } from '../../../../services/context'
import { setChatLabel } from '../../../../services/labels/associate'
import { createRouter } from '../../../router'
import { LABEL_ERRORS } from '../error-lists'

export const removeChatLabelRoute = createRoute({
  operationId: 'removeChatLabel',
  method: 'delete',
  path: '/v1/label/{labelId}/chat',
  tags: ['Labels'],
  summary: 'Take a label off a chat',
  description: 'Idempotent; a `label.association` event follows a change.',
  security: bearerSecurity,
  request: { params: LabelIdParam, query: LabelChatQuery },
  responses: {
    200: jsonResponse(LabelChatResponse, 'The chat no longer carries the label'),
    ...errorResponses(LABEL_ERRORS),
  },
})

export const removeChatLabelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(removeChatLabelRoute, async (c) => {
    const { sessionId, phone } = c.req.valid('query')
    const { labelId } = c.req.valid('param')
    const workspaceId = c.get('workspace').id
    return c.json(await setChatLabel(ctx, { workspaceId, sessionId, labelId, phone, labeled: false }), 200)
  })
