import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { LabelDeletedResponse, LabelIdParam, LabelSessionQuery } from '../../../../schemas/label'
import type { GatewayContext } from '../../../../services/context'
import { deleteLabel } from '../../../../services/labels/remove'
import { createRouter } from '../../../router'
import { LABEL_ERRORS } from '../error-lists'

export const deleteLabelRoute = createRoute({
  operationId: 'deleteLabel',
  method: 'delete',
  path: '/v1/label/{labelId}',
  tags: ['Labels'],
  summary: 'Delete a label',
  description: 'Its chats and messages lose it; a `label.deleted` event follows. An unknown label is 404.',
  security: bearerSecurity,
  request: { params: LabelIdParam, query: LabelSessionQuery },
  responses: {
    200: jsonResponse(LabelDeletedResponse, 'Deleted'),
    ...errorResponses(LABEL_ERRORS),
  },
})

export const deleteLabelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(deleteLabelRoute, async (c) =>
    c.json(
      await deleteLabel(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('query').sessionId,
        labelId: c.req.valid('param').labelId,
      }),
      200,
    ),
  )
