import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { webhookDescriptions, webhookEnvelope, webhookEventTypes } from '../schemas/webhook-events'

const signatureHeaders = {
  'webhook-id': {
    description: 'The event id: the same on every retry and replay (deduplicate on it).',
    schema: { type: 'string' as const },
  },
  'webhook-timestamp': { description: 'Unix seconds of this attempt.', schema: { type: 'string' as const } },
  'webhook-signature': {
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` of `id.timestamp.body`, one per valid secret (two for 24 h after a rotation).',
    schema: { type: 'string' as const },
  },
}

/** The OpenAPI `webhooks` section: one POST per event type, its body drawn from the catalogue. */
export function webhookCatalogue(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    webhookEventTypes.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: type,
          // The gateway calls the receiver: no API credential, the signature headers authenticate it.
          security: [],
          description: `${webhookDescriptions[type]} Signed per Standard Webhooks with the session's webhookSecret.`,
          parameters: Object.entries(signatureHeaders).map(([name, header]) => ({
            name,
            in: 'header' as const,
            required: true,
            ...header,
          })),
          requestBody: { required: true, content: { 'application/json': { schema: webhookEnvelope(type) } } },
          responses: {
            '200': {
              description:
                'Any 2xx marks the event delivered; anything else, or no answer within WEBHOOK_TIMEOUT_MS, is retried.',
            },
          },
        },
      },
    ]),
  )
}
