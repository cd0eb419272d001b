/**
 * The catalogue's event types, the one list: `webhookEventData` (webhook-events.ts) gives each
 * its data schema, and a session's `webhookEvents` lists some of them. On the ground floor
 * because the database, the services, the webhooks and the schemas all name them.
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
  'status.received',
  'call.received',
  'presence.update',
  'group.joined',
  'group.left',
  'group.updated',
  'group.participants',
  'history.progress',
  'history.synced',
  'channel.message',
  'channel.updated',
  'label.upserted',
  'label.deleted',
  'label.association',
] as const

export type WebhookEventType = (typeof webhookEventTypes)[number]

/** `message.*` kinds and contacts' statuses: the ones `webhookMessages: false` suppresses. */
export const isMessageEvent = (type: WebhookEventType) => type.startsWith('message.') || type === 'status.received'
