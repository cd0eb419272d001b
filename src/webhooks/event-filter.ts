import { isMessageEvent, type WebhookEventType } from '../shared/event-types'

/** The session settings that choose which of its events are written (docs/webhooks.md "Choosing events"). */
export interface EventFilter {
  webhookMessages: boolean
  /** null: every type. */
  webhookEvents: readonly WebhookEventType[] | null
}

/**
 * Whether an event of `type` is written for a session with these settings: the one rule for
 * both switches. `webhookMessages: false` drops every `message.*` kind, whatever the list says;
 * a list keeps only its types. An event not written is nowhere: not delivered, not in the
 * stream, not in the delivery log, not replayable, and it takes no `sequence` number.
 */
export function eventWanted(filter: EventFilter, type: WebhookEventType): boolean {
  if (isMessageEvent(type) && !filter.webhookMessages) return false
  return filter.webhookEvents === null || filter.webhookEvents.includes(type)
}
