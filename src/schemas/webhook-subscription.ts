import { z } from 'zod'
import { EXAMPLE_WEBHOOK_URL } from './examples'
import { atLeastOneOf } from './requirements'
import { webhookEvents, webhookUrl } from './session'
import { WebhookEventTypeSchema } from './webhook-event-types'

/** Webhooks a session or a workspace has besides each session's own webhookUrl (docs/webhooks.md "More webhooks"). */

/** Webhooks a session may have besides its webhookUrl, and a workspace may have of its own. */
export const MAX_WEBHOOKS = 10

/** Enough to say what a webhook is for; bounded so a row stays small. */
export const MAX_WEBHOOK_DESCRIPTION = 500

const url = webhookUrl.meta({ description: 'The http(s) endpoint that receives the events.' })
const events = webhookEvents.optional().meta({
  description:
    'Only these event types go to this webhook; null (or leaving it out): every type. message.* types need the plan’s message webhooks.',
  example: ['message.received', 'session.status'],
})
const description = z
  .string()
  .max(MAX_WEBHOOK_DESCRIPTION)
  .nullable()
  .optional()
  .meta({ description: `What the webhook is for, at most ${MAX_WEBHOOK_DESCRIPTION} characters.` })

export const CreateWebhookBody = z.strictObject({ url, events, description })
const createExample = { url: EXAMPLE_WEBHOOK_URL, events: ['message.received'] }
// A request body component is one operation's: the session's and the workspace's routes each have theirs.
export const CreateSessionWebhookBody = CreateWebhookBody.meta({
  id: 'CreateSessionWebhookRequest',
  example: createExample,
})
export const CreateWorkspaceWebhookBody = CreateWebhookBody.meta({
  id: 'CreateWorkspaceWebhookRequest',
  example: createExample,
})

export const UpdateWebhookBody = atLeastOneOf(
  z.strictObject({
    url: url.optional(),
    events,
    description,
    rotateSecret: z.boolean().optional().meta({
      description:
        'true: a new secret, answered once; deliveries carry signatures with the old and the new secret for 24 h.',
    }),
  }),
)
const updateExample = { events: ['message.received', 'session.status'] }
export const UpdateSessionWebhookBody = UpdateWebhookBody.meta({
  id: 'UpdateSessionWebhookRequest',
  example: updateExample,
})
export const UpdateWorkspaceWebhookBody = UpdateWebhookBody.meta({
  id: 'UpdateWorkspaceWebhookRequest',
  example: updateExample,
})

export const WebhookSchema = z
  .object({
    webhookId: z.string(),
    url: z.string(),
    events: z
      .array(WebhookEventTypeSchema)
      .nullable()
      .meta({ description: 'The event types it gets; null: every type.' }),
    description: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' })

export const CreatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().meta({ description: 'Signs this webhook’s deliveries (Standard Webhooks); shown only here.' }),
}).meta({ id: 'CreatedWebhook' })

export const UpdatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().optional().meta({ description: 'Only when rotateSecret was true: the new secret.' }),
}).meta({ id: 'UpdatedWebhook' })

export const WebhookListResponse = z.object({ webhooks: z.array(WebhookSchema) }).meta({ id: 'WebhookList' })

export const DeletedWebhookResponse = z
  .object({ webhookId: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhook' })

const webhookId = z.string().min(1).max(100)
export const SessionWebhookParams = z.object({ id: z.string().min(1).max(100), webhookId })
export const WorkspaceWebhookParams = z.object({ webhookId })

export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookBody>
export type WebhookView = z.infer<typeof WebhookSchema>
