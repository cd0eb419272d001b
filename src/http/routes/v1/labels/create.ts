import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { CreateLabelBody, LabelResponse, MAX_LABELS } from '../../../../schemas/label'
import type { GatewayContext } from '../../../../services/context'
import { createLabel } from '../../../../services/labels/save'
import { createRouter } from '../../../router'
import { LABEL_ERRORS } from '../error-lists'

export const createLabelRoute = createRoute({
  operationId: 'createLabel',
  method: 'post',
  path: '/v1/label',
  tags: ['Labels'],
  summary: 'Create a WhatsApp Business label',
  description: `One app-state patch, as the phone would write it: the phone and every linked device show it, and a \`label.upserted\` event follows. At most ${MAX_LABELS} labels per account (400 past that). A personal account is 409 not_business_account.`,
  security: bearerSecurity,
  request: { body: jsonBody(CreateLabelBody) },
  responses: {
    200: jsonResponse(LabelResponse, 'The label, with the id WhatsApp knows it by'),
    ...errorResponses(LABEL_ERRORS),
  },
})

export const createLabelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(createLabelRoute, async (c) =>
    c.json(await createLabel(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
