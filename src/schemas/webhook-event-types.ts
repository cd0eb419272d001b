import { z } from 'zod'

/**
 * The catalogue's event types, the one list: `webhookEventData` (webhook-events.ts) gives each
 * its data schema, and a session's `webhookEvents` lists some of them. A file of its own because
 * the session schemas need the names while the event schemas need the session's statuses.
 */
export const webhookEventTypes = [
  'session.status',
  'session.qr',
  'message.received',
  'message.status',
  'message.edited',
  'message.deleted',
  'message.poll_vote',
  'message.reaction',
  'call.received',
  'group.joined',
  'group.left',
  'group.updated',
  'group.participants',
] as const

export type WebhookEventType = (typeof webhookEventTypes)[number]

/** `message.*` kinds: the ones `webhookMessages: false` suppresses. */
export const isMessageEvent = (type: WebhookEventType) => type.startsWith('message.')

/** One event type of the catalogue: the values a session's `webhookEvents` may list. */
export const WebhookEventTypeSchema = z.enum(webhookEventTypes).meta({
  id: 'WebhookEventType',
  description: 'An event type of the catalogue (docs/webhooks.md).',
})
