import { createRoute, z } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { EXAMPLE_SESSION_ID } from '../../../../schemas/examples'
import { rejectCall } from '../../../../services/calls/reject'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

const CallIdParam = z.object({
  callId: z
    .string()
    .min(1)
    .max(128)
    .meta({ description: 'The callId of its `call.received` event.', example: 'CALL4C1A2B3D' }),
})

export const RejectCallBody = z
  .strictObject({ sessionId: z.string().min(1).max(100) })
  .meta({ id: 'RejectCallRequest', example: { sessionId: EXAMPLE_SESSION_ID } })

const RejectCallResponse = z
  .object({
    sessionId: z.string(),
    callId: z.string(),
    from: z.string().meta({ description: 'The caller as WhatsApp addressed them (a jid), as in call.received.' }),
    rejected: z.literal(true),
  })
  .meta({ id: 'RejectedCall' })

export const rejectCallRoute = createRoute({
  operationId: 'rejectCall',
  method: 'post',
  path: '/v1/call/{callId}/reject',
  tags: ['Calls'],
  summary: 'Reject an incoming call',
  description:
    'Declines a call while it rings (the caller sees it declined), for sessions that do not reject every call by themselves (autoRejectCalls). A call that ended, was answered on the phone or was rejected already is 404: nothing rings any more.',
  security: bearerSecurity,
  request: { params: CallIdParam, body: jsonBody(RejectCallBody) },
  responses: {
    200: jsonResponse(RejectCallResponse, 'Rejected'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const rejectCallEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(rejectCallRoute, async (c) =>
    c.json(
      await rejectCall(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        callId: c.req.valid('param').callId,
      }),
      200,
    ),
  )
