import { z } from 'zod'
import { sessionStatuses } from '../shared/session-statuses'
import { proxyUrlProblem } from '../net/proxy-url'
import { phoneDigits } from './phone'
import { EXAMPLE_WEBHOOK_URL } from './examples'
import { atLeastOneOf } from './requirements'
import { sessionName } from './session-name'
import { WebhookEventTypeSchema } from './webhook-event-types'
import { webhookEventTypes } from '../shared/event-types'

export const webhookUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048)

/** Validated in full here (shape, credentials); the host is checked by the service (DNS). Never echoed in an error. */
const proxyUrl = z
  .string()
  .superRefine((value, ctx) => {
    const problem = proxyUrlProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
  .meta({
    description:
      'Proxy for this session’s WhatsApp connection and media: http://, https:// or socks5://, credentials allowed (user:password@). Answered with the password masked.',
    example: 'socks5://user:password@proxy.example.com:1080',
  })

const maskedProxyUrl = z.string().nullable().meta({
  description:
    'The session’s own proxy, password masked as ****; null: none (PROXY_URL, if the operator set one, applies).',
})

/** Bounded so that one session's queue settings stay within what SEND_QUEUE_MAX_WAIT_MS can mean. */
const pacingMs = z.number().int().min(0).max(600_000)

const sendPacing = z
  .strictObject({
    minIntervalMs: pacingMs.meta({ description: 'Least time between two hand-overs to WhatsApp (ms).' }),
    jitterMs: pacingMs.default(0).meta({ description: 'Up to this much more, drawn at random for each send (ms).' }),
    typing: z.boolean().default(false).meta({
      description:
        'Show “typing…” (“recording…” before a voice note) for a time that fits the message, then paused, before each send.',
    }),
  })
  // Inline, not a component: components stay open (responses), and this request object is strict.
  .meta({
    description:
      'Paces this session’s sends: each waits its turn in order; one whose turn is further than SEND_QUEUE_MAX_WAIT_MS is 429. All zero and false: not paced.',
    example: { minIntervalMs: 20_000, jitterMs: 15_000, typing: true },
  })

const history = z
  .strictObject({
    days: z.number().int().min(1).max(365).meta({ description: 'Days back from the linking WhatsApp is asked for.' }),
    maxMessages: z.number().int().min(1).optional().meta({
      description:
        'The most messages stored (default 10,000; at most the operator’s HISTORY_MAX_MESSAGES): the newest come first, the rest is counted as skipped.',
    }),
  })
  .meta({
    description:
      'Import the phone’s chats and messages when it links: WhatsApp is asked for a full sync of this many days, and what arrives is stored with source "history" and reported by history.progress and one history.synced event (never one message.received per old message). Left out: nothing is imported. See docs/history.md.',
    example: { days: 30, maxMessages: 5000 },
  })

const historyView = z
  .object({ days: z.number(), maxMessages: z.number() })
  .nullable()
  .meta({ description: 'The history imported at the next linking; null: none.' })

const sendPacingView = z
  .object({ minIntervalMs: z.number(), jitterMs: z.number(), typing: z.boolean() })
  .nullable()
  .meta({
    description:
      'The session’s own send pacing; null: the operator’s SEND_PACING_* defaults apply (not paced unless set).',
  })

/**
 * The event types a session's webhook gets: catalogue names only, each once. A list longer than
 * the catalogue is one issue (zod checks the length before the entries), and each repeated name
 * is one issue, so the error stays small whatever the list.
 */
export const webhookEvents = z
  .array(WebhookEventTypeSchema)
  .min(1, { error: 'must list at least one event type; null (or leaving it out) means every type' })
  .max(webhookEventTypes.length, { error: `lists more than the ${webhookEventTypes.length} event types there are` })
  .superRefine((types, ctx) => {
    const seen = new Set<string>()
    const named = new Set<string>()
    for (const [index, type] of types.entries()) {
      // Each repeated type named once, at its first repeat: at most one issue per catalogue entry.
      if (seen.has(type) && !named.has(type)) {
        ctx.addIssue({ code: 'custom', path: [index], message: `"${type}" is listed more than once` })
        named.add(type)
      }
      seen.add(type)
    }
  })
  .nullable()
  .meta({
    description:
      'Only these event types are written for the session (delivered, streamed, replayable); null: every type. message.* types and status.received also need webhookMessages (the plan’s message webhooks). See docs/webhooks.md “Choosing events”.',
    example: ['message.received', 'session.status'],
  })

const webhookEventsView = z
  .array(WebhookEventTypeSchema)
  .nullable()
  .meta({ description: 'The event types written for the session; null: every type.' })

const webhookUrlView = z.string().nullable().meta({
  description: 'The session’s own webhook; null: none (its events are in GET /v1/events and the delivery log only).',
})

export const ConnectSessionBody = z
  .strictObject({
    sessionName,
    webhookUrl: webhookUrl.optional().meta({
      description:
        'HTTPS endpoint that receives the session’s events, signed. Left out: none; the events are still written and read from GET /v1/events, the delivery log and the panel, and PUT /v1/session/update/{id} can set one later.',
    }),
    webhookMessages: z
      .boolean()
      .optional()
      .meta({ description: 'Message webhooks; default true where the plan has them.' }),
    webhookEvents: webhookEvents.optional(),
    mode: z.enum(['qr', 'pairing']).default('qr'),
    pairingNumber: phoneDigits.optional().meta({ description: 'Required when mode is pairing.' }),
    proxyUrl: proxyUrl.optional(),
    sendPacing: sendPacing.optional(),
    history: history.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.mode === 'pairing' && !body.pairingNumber)
      ctx.addIssue({ code: 'custom', path: ['pairingNumber'], message: 'is required when mode is "pairing"' })
    if (body.mode === 'qr' && body.pairingNumber)
      ctx.addIssue({ code: 'custom', path: ['pairingNumber'], message: 'is only used when mode is "pairing"' })
  })
  .meta({ id: 'ConnectSessionRequest', example: { sessionName: 'sales', webhookUrl: EXAMPLE_WEBHOOK_URL } })

export const SessionStatusSchema = z.enum(sessionStatuses).meta({
  id: 'SessionStatus',
  description:
    'pending → connected | expired; connected → connecting → connected | logged_out; any → disconnected; expired | logged_out | disconnected → pending on a new connect.',
})

export const SessionSchema = z
  .object({
    sessionId: z.string(),
    sessionName: z.string(),
    status: SessionStatusSchema,
    statusReason: z.string().nullable().meta({ description: 'Short machine word, e.g. qr_timeout, device_removed.' }),
    number: z.string().nullable(),
    connected: z.boolean(),
    webhookUrl: webhookUrlView,
    webhookMessages: z.boolean(),
    webhookEvents: webhookEventsView,
    autoRejectCalls: z.boolean(),
    lastSeen: z.iso.datetime().nullable(),
    proxyUrl: maskedProxyUrl,
    sendPacing: sendPacingView,
    history: historyView,
  })
  .meta({ id: 'Session' })

export const ConnectSessionResponse = z
  .object({
    sessionId: z.string(),
    status: SessionStatusSchema,
    qrCode: z.string().meta({ description: 'The QR payload to render; it is replaced every 20 to 60 s.' }),
    qrImage: z.string().meta({
      description:
        'The same QR as a PNG data URL (`data:image/png;base64,…`), ready for an <img>. Newer ones: GET /v1/session/{id}/qr.',
    }),
    pairingCode: z.string().optional().meta({ description: 'In pairing mode: the code to type on the phone.' }),
    webhookUrl: webhookUrlView,
    webhookMessages: z.boolean(),
    webhookEvents: webhookEventsView,
    webhookSecret: z.string().meta({ description: 'Signs webhook deliveries (Standard Webhooks).' }),
    proxyUrl: maskedProxyUrl,
    sendPacing: sendPacingView,
    history: historyView,
  })
  .meta({ id: 'ConnectSessionResponse' })

export const UpdateSessionResponse = SessionSchema.extend({
  webhookSecret: z.string().optional().meta({ description: 'Only when rotateWebhookSecret was true: the new secret.' }),
}).meta({ id: 'UpdatedSession' })

export const SessionListResponse = z.object({ sessions: z.array(SessionSchema) }).meta({ id: 'SessionList' })

export const UpdateSessionBody = atLeastOneOf(
  z.strictObject({
    sessionName: sessionName.optional(),
    webhookUrl: webhookUrl.nullable().optional().meta({
      description:
        'A new webhook for the events written from now on, or null to have none: deliveries still pending to the old one end failed (replayable). Events written while there was none are not sent by themselves; POST /v1/webhooks/replay sends them.',
    }),
    webhookMessages: z.boolean().optional(),
    webhookEvents: webhookEvents.optional().meta({
      description:
        'A new list of the event types written for the session, from its next event on; null: every type again.',
    }),
    autoRejectCalls: z.boolean().optional(),
    proxyUrl: proxyUrl.nullable().optional().meta({
      description:
        'A new proxy, or null to remove the session’s own (PROXY_URL then applies, if set). Takes effect at the next connection: restart the session to apply it now.',
    }),
    sendPacing: sendPacing.nullable().optional().meta({
      description:
        'New send pacing for the sends made from now on (those already waiting keep their turn), or null to follow the operator’s SEND_PACING_* defaults.',
    }),
    history: history.nullable().optional().meta({
      description:
        'The history to import at the next linking (WhatsApp asks for it only when a phone links), or null for none. The current link is not affected.',
    }),
    rotateWebhookSecret: z.boolean().optional().meta({
      description:
        'true: a new webhookSecret, answered once; deliveries carry signatures with the old and the new secret for 24 h.',
    }),
  }),
).meta({
  id: 'UpdateSessionRequest',
  example: { webhookMessages: true, webhookEvents: ['message.received', 'session.status'], autoRejectCalls: true },
})

export const SessionQrResponse = z
  .object({
    sessionId: z.string(),
    qrCode: z.string().meta({ description: 'The QR payload WhatsApp offers now.' }),
    qrImage: z.string().meta({ description: 'The same QR as a PNG data URL.' }),
    createdAt: z.iso.datetime().meta({ description: 'When WhatsApp offered it; a new one follows every 20 to 60 s.' }),
  })
  .meta({ id: 'SessionQr' })

const removedCount = (description: string) => z.int().min(0).meta({ description })

export const DeletedSessionResponse = z
  .object({
    sessionId: z.string(),
    sessionName: z.string(),
    removed: z
      .object({
        messages: removedCount('Message records (with their poll votes).'),
        media: removedCount('Received files kept in the media store.'),
        events: removedCount('Events in the outbox.'),
        deliveries: removedCount('Webhook deliveries (the delivery log).'),
        webhooks: removedCount('Webhooks besides webhookUrl.'),
        chatwoot: removedCount('Chatwoot integrations (0 or 1, with its chats and messages).'),
        groups: removedCount('Groups in the group store (with their participants).'),
        contacts: removedCount('Contact names learnt.'),
        authKeys: removedCount('Credentials and Signal keys.'),
        idempotencyKeys: removedCount('Idempotency-Keys of its sends.'),
      })
      .meta({ description: 'How many of each kind were removed.' }),
  })
  .meta({ id: 'DeletedSession' })

export const SessionIdParam = z.object({ id: z.string().min(1).max(100) })
export const SessionIdPathParam = z.object({ session_id: z.string().min(1).max(100) })

export type ConnectSessionInput = z.infer<typeof ConnectSessionBody>
export type UpdateSessionInput = z.infer<typeof UpdateSessionBody>
export type SessionView = z.infer<typeof SessionSchema>
export type DeletedSession = z.infer<typeof DeletedSessionResponse>
