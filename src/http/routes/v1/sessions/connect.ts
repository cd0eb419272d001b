import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { ConnectSessionBody, ConnectSessionResponse } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { connectSession } from '../../../../services/sessions/connect'
import { qrPngDataUrl } from '../../../qr-image'
import { createRouter } from '../../../router'

export const connectSessionRoute = createRoute({
  operationId: 'connectSession',
  method: 'post',
  path: '/v1/session/connect',
  tags: ['Sessions'],
  summary: 'Open a session and get its QR code (or pairing code)',
  description:
    'Waits for the first QR payload from WhatsApp (bounded by CONNECT_TIMEOUT_MS). Reusing the name of an expired, logged-out or disconnected session re-pairs it under the same sessionId.',
  security: bearerSecurity,
  request: { body: jsonBody(ConnectSessionBody) },
  responses: {
    200: jsonResponse(ConnectSessionResponse, 'The new pairing'),
    ...errorResponses([
      'validation_error',
      'plan_required',
      'session_name_taken',
      'upstream_error',
      'upstream_timeout',
    ]),
  },
})

export const connectSessionEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(connectSessionRoute, async (c) => {
    const result = await connectSession(ctx, {
      workspace: c.get('workspace'),
      plan: c.get('plan'),
      input: c.req.valid('json'),
    })
    return c.json({ ...result, qrImage: await qrPngDataUrl(result.qrCode) }, 200)
  })
