import { z } from 'zod'
import { webhookEventTypes } from '../shared/event-types'

/** One event type of the catalogue: the values a session's `webhookEvents` may list. */
export const WebhookEventTypeSchema = z.enum(webhookEventTypes).meta({
  id: 'WebhookEventType',
  description: 'An event type of the catalogue (docs/webhooks.md).',
})
