import { describe, expect, it } from 'vitest'
import { type WebhookEventType, webhookEventTypes } from '../../src/shared/event-types'
import { eventWanted } from '../../src/webhooks/event-filter'

/** The one rule for webhookMessages and webhookEvents, every branch (end to end: event-filter.happy.test.ts). */
describe('eventWanted', () => {
  // What webhookMessages covers: the messages themselves, and contacts' statuses.
  const isMessageType = (type: WebhookEventType) => type.startsWith('message.') || type === 'status.received'
  const messageTypes = webhookEventTypes.filter(isMessageType)
  const otherTypes = webhookEventTypes.filter((type) => !isMessageType(type))

  it('writes every type with no list and message webhooks on', () => {
    for (const type of webhookEventTypes)
      expect(eventWanted({ webhookMessages: true, webhookEvents: null }, type)).toBe(true)
  })

  it('leaves out every message.* type and status.received with message webhooks off, and only those', () => {
    const filter = { webhookMessages: false, webhookEvents: null }
    expect(messageTypes.filter((type) => eventWanted(filter, type))).toEqual([])
    expect(otherTypes.filter((type) => eventWanted(filter, type))).toEqual(otherTypes)
  })

  it('writes only the listed types', () => {
    const filter = {
      webhookMessages: true,
      webhookEvents: ['message.received', 'group.left'] satisfies WebhookEventType[],
    }
    expect(webhookEventTypes.filter((type) => eventWanted(filter, type))).toEqual(['message.received', 'group.left'])
  })

  it('lets webhookMessages: false win over a listed message.* type', () => {
    const filter = {
      webhookMessages: false,
      webhookEvents: ['message.received', 'call.received'] satisfies WebhookEventType[],
    }
    expect(webhookEventTypes.filter((type) => eventWanted(filter, type))).toEqual(['call.received'])
  })
})
