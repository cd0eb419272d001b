import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { LabelIdParam, LabelMessageBody, LabelMessageResponse } from '../../../../schemas/label'
import type { GatewayContext } from '../../../../services/context'
import { setMessageLabel } from '../../../../services/labels/associate'
import { createRouter } from '../../../router'
import { LABEL_ERRORS } from '../error-lists'

export const addMessageLabelRoute = createRoute({
  operationId: 'addMessageLabel',
  method: 'post',
  path: '/v1/label/{labelId}/message',
  tags: ['Labels'],
  summary: 'Put a label on a message',
  description:
    'A message the gateway has a record of (sent, received or imported; else 404). Idempotent; a `label.association` event follows a change.',
  security: bearerSecurity,
  request: { params: LabelIdParam, body: jsonBody(LabelMessageBody) },
  responses: {
    200: jsonResponse(LabelMessageResponse, 'The message carries the label'),
    ...errorResponses(LABEL_ERRORS),
  },
})

export const addMessageLabelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(addMessageLabelRoute, async (c) => {
    const { sessionId, messageId } = c.req.valid('json')
    const { labelId } = c.req.valid('param')
    const workspaceId = c.get('workspace').id
    return c.json(await setMessageLabel(ctx, { workspaceId, sessionId, labelId, messageId, labeled: true }), 200)
  })
