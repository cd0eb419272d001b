import { createRoute, z } from '@hono/zod-openapi'
import { accepts } from 'hono/accepts'
import { bearerSecurity, errorResponses } from '../../../../openapi/route'
import { SessionIdParam, SessionQrResponse } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { currentQr } from '../../../../services/sessions/qr'
import { qrPng, qrPngDataUrl, qrSvg } from '../../../qr-image'
import { createRouter } from '../../../router'

const IMAGE_TYPES = ['image/png', 'image/svg+xml'] as const

export const sessionQrRoute = createRoute({
  operationId: 'getSessionQr',
  method: 'get',
  path: '/v1/session/{id}/qr',
  tags: ['Sessions'],
  summary: 'The QR code a pairing session shows now',
  description:
    'JSON by default; `Accept: image/png` or `Accept: image/svg+xml` answers the image itself. ' +
    'WhatsApp offers a new QR every 20 to 60 s: poll this, or take `session.qr` events. ' +
    '409 `session_state_conflict` when the session is not pairing (e.g. already connected); 404 while WhatsApp has not offered its first QR yet.',
  security: bearerSecurity,
  request: { params: SessionIdParam },
  responses: {
    200: {
      description: 'The current QR',
      content: {
        'application/json': { schema: SessionQrResponse },
        'image/png': { schema: z.string().meta({ format: 'binary' }) },
        'image/svg+xml': { schema: z.string() },
      },
    },
    ...errorResponses(['not_found', 'session_state_conflict']),
  },
})

export const sessionQrEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(sessionQrRoute, async (c) => {
    const qr = currentQr(ctx, { workspaceId: c.get('workspace').id, sessionId: c.req.valid('param').id })
    // A QR lives seconds and pairs a device: never cached, by the browser or anything between.
    c.header('cache-control', 'no-store')
    c.header('vary', 'accept')
    const type = accepts(c, {
      header: 'Accept',
      supports: ['application/json', ...IMAGE_TYPES],
      default: 'application/json',
    })
    if (type === 'image/png') return c.body(await qrPng(qr.qrCode), 200, { 'content-type': 'image/png' })
    if (type === 'image/svg+xml') return c.body(await qrSvg(qr.qrCode), 200, { 'content-type': 'image/svg+xml' })
    return c.json({ ...qr, qrImage: await qrPngDataUrl(qr.qrCode) }, 200)
  })
