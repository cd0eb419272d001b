import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { LabelIdParam, LabelResponse, UpdateLabelBody } from '../../../../schemas/label'
import type { GatewayContext } from '../../../../services/context'
import { updateLabel } from '../../../../services/labels/save'
import { createRouter } from '../../../router'
import { LABEL_ERRORS } from '../error-lists'

export const updateLabelRoute = createRoute({
  operationId: 'updateLabel',
  method: 'patch',
  path: '/v1/label/{labelId}',
  tags: ['Labels'],
  summary: 'Rename or recolour a label',
  description: 'Only the fields given change; a `label.upserted` event follows. An unknown label is 404.',
  security: bearerSecurity,
  request: { params: LabelIdParam, body: jsonBody(UpdateLabelBody) },
  responses: {
    200: jsonResponse(LabelResponse, 'The label after the change'),
    ...errorResponses(LABEL_ERRORS),
  },
})

export const updateLabelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(updateLabelRoute, async (c) =>
    c.json(
      await updateLabel(ctx, {
        workspaceId: c.get('workspace').id,
        labelId: c.req.valid('param').labelId,
        input: c.req.valid('json'),
      }),
      200,
    ),
  )
