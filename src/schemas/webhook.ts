import { z } from 'zod'
import { webhookDeliveryStatuses } from '../db/schema'
import { EXAMPLE_SESSION_ID } from './examples'

const sessionId = z.string().min(1).max(100)

export const DeliveryIdParam = z.object({ deliveryId: z.string().min(1).max(100) })

export const RetryDeliveryQuery = z.strictObject({
  sessionId: sessionId.optional().meta({
    description:
      'The delivery’s session: required on the edge deployment (each session keeps its own log there); elsewhere, when given, the delivery must be that session’s.',
  }),
})

export const ListDeliveriesQuery = z.strictObject({
  sessionId: sessionId.optional().meta({ description: 'Only this session’s deliveries.' }),
  webhookId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Only the deliveries to this webhook (one added with POST …/webhooks).' }),
  status: z.enum(webhookDeliveryStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(40).optional().meta({ description: 'nextCursor of the previous page.' }),
})

export const DeliverySchema = z
  .object({
    deliveryId: z.string(),
    eventId: z
      .string()
      .meta({ description: 'The webhook-id header: the same on every retry and replay of the event.' }),
    sessionId: z.string(),
    webhookId: z.string().nullable().meta({
      description: 'The webhook it goes to; null: the session’s webhookUrl.',
    }),
    type: z.string().meta({ description: 'The event type, e.g. message.received.' }),
    sequence: z.number().int(),
    status: z
      .enum(webhookDeliveryStatuses)
      .meta({ description: 'pending (waiting or retrying), delivered (2xx), failed (retries ran out).' }),
    attempts: z.number().int(),
    lastStatusCode: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'HTTP status of the last attempt; null when there was no answer.' }),
    lastError: z.string().nullable().meta({
      description: 'Why the last attempt failed, e.g. HTTP 503, ECONNREFUSED, a timeout or a refused address.',
    }),
    nextAttemptAt: z.iso.datetime().nullable().meta({ description: 'While pending: when the next attempt is due.' }),
    waitingFor: z.object({ deliveryId: z.string(), sequence: z.number().int() }).nullable().meta({
      description:
        'While pending behind an earlier pending delivery to the same webhook (a webhook gets a session’s events one at a time, in order): that delivery and its event’s sequence; null otherwise.',
    }),
    replay: z.boolean().meta({
      description:
        'Queued by POST /v1/webhooks/replay (the event had gone to this webhook before); false for the series written with the event. A retry keeps it.',
    }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookDelivery' })

export const DeliveryListResponse = z
  .object({ deliveries: z.array(DeliverySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryList' })

/**
 * Events one replay queues at most: a session's whole history (72 h of a busy number) in one
 * call would be one long write transaction and a burst at the receiver. Past it, nextCursor.
 */
export const MAX_REPLAY_EVENTS = 1_000

export const ReplayBody = z
  .strictObject({
    sessionId,
    since: z.iso
      .datetime({ offset: true })
      .meta({ description: 'Events that happened at or after this time (still within WEBHOOK_RETENTION_HOURS).' }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_REPLAY_EVENTS)
      .default(MAX_REPLAY_EVENTS)
      .meta({ description: `Events queued by this call, at most ${MAX_REPLAY_EVENTS}.` }),
    webhookId: z.string().min(1).max(100).optional().meta({
      description:
        'Replay to this webhook (the session’s own or a workspace one) the events that were written for it; left out: the session’s webhookUrl.',
    }),
    cursor: z
      .string()
      .regex(/^\d{1,15}$/, 'must be the nextCursor of a previous replay')
      .optional()
      .meta({
        description: 'nextCursor of the previous replay (same sessionId and since): continues after its last event.',
      }),
  })
  .meta({
    id: 'WebhookReplayRequest',
    example: { sessionId: EXAMPLE_SESSION_ID, since: '2026-11-25T09:00:00.000Z' },
  })

export const ReplayResponse = z
  .object({
    replayed: z.number().int().meta({ description: 'How many events were queued again, oldest first.' }),
    nextCursor: z.string().nullable().meta({
      description:
        'More events match: send it as cursor (with the same sessionId and since) to continue; null when done.',
    }),
  })
  .meta({ id: 'WebhookReplayResponse' })

export type ListDeliveriesInput = z.infer<typeof ListDeliveriesQuery>
export type ReplayInput = z.infer<typeof ReplayBody>
export type DeliveryView = z.infer<typeof DeliverySchema>
