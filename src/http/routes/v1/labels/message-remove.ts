import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { LabelIdParam, LabelMessageQuery, LabelMessageResponse } from '../../../../schemas/label'
import type { GatewayContext } from '../../../../services/context'
import { setMessageLabel } from '../../../../services/labels/associate'
import { createRouter } from '../../../router'
import { LABEL_ERRORS } from '../error-lists'

export const removeMessageLabelRoute = createRoute({
  operationId: 'removeMessageLabel',
  method: 'delete',
  path: '/v1/label/{labelId}/message',
  tags: ['Labels'],
  summary: 'Take a label off a message',
  description: 'Idempotent; a `label.association` event follows a change.',
  security: bearerSecurity,
  request: { params: LabelIdParam, query: LabelMessageQuery },
  responses: {
    200: jsonResponse(LabelMessageResponse, 'The message no longer carries the label'),
    ...errorResponses(LABEL_ERRORS),
  },
})

export const removeMessageLabelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(removeMessageLabelRoute, async (c) => {
    const { sessionId, messageId } = c.req.valid('query')
    const { labelId } = c.req.valid('param')
    const workspaceId = c.get('workspace').id
    return c.json(await setMessageLabel(ctx, { workspaceId, sessionId, labelId, messageId, labeled: false }), 200)
  })
