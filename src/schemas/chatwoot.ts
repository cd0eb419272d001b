import { z } from 'zod'
import { webhookUrl } from './session'

/** A session's Chatwoot integration (docs/chatwoot.md): its configuration as sent and as answered. */

/** The access token of the request example (the declared-answers test puts a real one in its place). */
export const CHATWOOT_EXAMPLE_TOKEN = 'Zm9yLXRoZS1leGFtcGxlLW9ubHk'

export const ChatwootConfigBody = z
  .strictObject({
    url: webhookUrl.meta({
      description: 'Where Chatwoot is served (https://chat.example.com); the same address checks as webhookUrl.',
    }),
    accountId: z
      .int()
      .positive()
      .max(2_147_483_647)
      .meta({ description: 'The Chatwoot account (its URLs say /app/accounts/<id>).' }),
    apiToken: z.string().min(1).max(200).optional().meta({
      description:
        'An access token of an agent or agent bot of the account (Profile settings → Access Token). Required to turn it on; left out on a change, the saved one is used.',
    }),
    inboxName: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'The API inbox to use or create; default: the session’s name.' }),
    signAgentName: z
      .boolean()
      .optional()
      .meta({ description: 'Agents’ replies start with their name in bold. Default true.' }),
    reopenResolved: z
      .boolean()
      .optional()
      .meta({ description: 'A message in a resolved conversation reopens it (else a new one starts). Default true.' }),
    startPending: z.boolean().optional().meta({ description: 'New conversations start as pending. Default false.' }),
    ignoreGroups: z.boolean().optional().meta({ description: 'Leave group messages out of Chatwoot. Default false.' }),
  })
  .meta({
    id: 'ChatwootConfigRequest',
    example: {
      url: 'https://chat.example.com',
      accountId: 1,
      apiToken: CHATWOOT_EXAMPLE_TOKEN,
      inboxName: 'Sales',
    },
  })

export const ChatwootConfigSchema = z
  .object({
    sessionId: z.string(),
    url: z.string(),
    accountId: z.number(),
    apiToken: z.string().meta({ description: 'Masked: its last 4 characters.' }),
    inboxId: z.number(),
    inboxName: z.string(),
    signAgentName: z.boolean(),
    reopenResolved: z.boolean(),
    startPending: z.boolean(),
    ignoreGroups: z.boolean(),
    state: z.enum(['ok', 'error']).meta({ description: '`error` while the last delivery to Chatwoot failed.' }),
    lastError: z.string().nullable(),
    lastErrorAt: z.iso.datetime().nullable(),
    deliveryStream: z.string().meta({
      description:
        'The webhookId under which its deliveries appear in GET /v1/webhooks/deliveries (retry and replay as for a webhook).',
    }),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ChatwootConfig' })

export const DeletedChatwootResponse = z
  .object({ sessionId: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedChatwootConfig' })

export type ChatwootConfigInput = z.infer<typeof ChatwootConfigBody>
export type ChatwootConfigView = z.infer<typeof ChatwootConfigSchema>
