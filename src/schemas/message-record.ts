import { z } from 'zod'
import { messageSources, messageStatuses } from '../db/schema'
import { messageTypes } from '../shared/message-types'
import { pollContentFields } from './poll'
import { reactionContentFields } from './reaction'

// A message record as every message route and the message events answer it.

const MediaSummarySchema = z
  .object({
    mimetype: z.string().meta({ description: 'As the sender declared it.' }),
    size: z.number().int().meta({ description: 'Bytes.' }),
    sha256: z.string().meta({ description: 'SHA-256 of the file, hex; the download’s ETag.' }),
    fileName: z.string().optional(),
    seconds: z.number().optional(),
    width: z.number().optional(),
    height: z.number().optional(),
  })
  .meta({
    id: 'MediaSummary',
    description:
      'The file an inbound image, video, audio, voice note, document or sticker carries: GET /v1/message/{messageId}/media serves it.',
  })

const LinkPreviewSummarySchema = z
  .object({
    url: z.string().meta({ description: 'The page, after redirects.' }),
    title: z.string(),
    description: z.string().optional(),
    thumbnail: z.boolean().meta({ description: 'Whether the preview carried the page’s picture.' }),
  })
  .meta({ id: 'LinkPreview', description: 'What the link preview of a text showed.' })

/** Who a message is between, as records and message events both say it. */
export const messageParties = {
  phone: z.string().nullable().meta({ description: 'The chat: the other party’s digits, or the group id `…@g.us`.' }),
  lid: z
    .string()
    .nullable()
    .meta({ description: 'The other party’s LID (`<digits>@lid`) when known (in groups: the sender’s).' }),
  participant: z
    .string()
    .nullable()
    .meta({ description: 'Groups, inbound: who wrote it: the number, else its `<digits>@lid`.' }),
}

export const MessageContentSchema = z
  .object({
    text: z.string().optional(),
    caption: z.string().optional(),
    mimetype: z.string().optional(),
    seconds: z.number().optional(),
    width: z.number().optional(),
    height: z.number().optional(),
    animated: z.boolean().optional(),
    fileName: z.string().optional(),
    gifPlayback: z.boolean().optional(),
    contacts: z
      .array(
        z.object({
          name: z.string(),
          phones: z.array(z.string()),
          organization: z.string().optional(),
          email: z.string().optional(),
        }),
      )
      .optional()
      .meta({
        description:
          'Contact cards: as sent, or parsed from the vCards received (at most 50 people, 20 numbers each; numbers are digits, WhatsApp’s id of the number when the card gives it).',
      }),
    latitude: z.number().optional(),
    longitude: z.number().optional(),
    name: z.string().optional(),
    media: MediaSummarySchema.optional(),
    selectedId: z.string().optional(),
    kind: z.string().optional(),
    buttonText: z.string().optional(),
    title: z.string().optional(),
    footer: z.string().optional(),
    sections: z
      .array(
        z.object({
          title: z.string(),
          rows: z.array(z.object({ title: z.string(), rowId: z.string(), description: z.string().optional() })),
        }),
      )
      .optional(),
    buttons: z.array(z.object({ buttonId: z.string(), buttonText: z.string() })).optional(),
    ...pollContentFields,
    ...reactionContentFields,
    forwarded: z
      .boolean()
      .optional()
      .meta({ description: 'Sent with POST /v1/message/{messageId}/forward: the recipient sees it as forwarded.' }),
    linkPreview: LinkPreviewSummarySchema.nullable().optional().meta({
      description:
        'Texts with a URL sent with previews on: the preview sent, or null when none could be made (the page failed, was slow, too large or had no title) and the text went without one.',
    }),
  })
  .meta({
    id: 'MessageContent',
    description: 'What the message says (never media bytes); the fields depend on the type.',
  })

export const MessageRecordSchema = z
  .object({
    messageId: z
      .string()
      .meta({ description: 'WhatsApp’s message id; the same in webhooks, quoteId, edit and delete.' }),
    sessionId: z.string(),
    ...messageParties,
    direction: z.enum(['inbound', 'outbound']),
    source: z.enum(messageSources).nullable().meta({
      description:
        'Outbound: `api` (sent through this gateway) or `phone` (sent from the account’s phone or another linked device); null for inbound; `history` for records of either direction imported from the phone’s history when it linked.',
    }),
    type: z.enum(messageTypes),
    status: z.enum(messageStatuses).meta({
      description:
        'Outbound: pending → sent → delivered → read → played (voice notes), never backwards; or failed; deleted after a delete. Inbound: received, or deleted.',
    }),
    statusReason: z.string().nullable().meta({ description: 'Why it failed or was deleted, e.g. new_chat_limit.' }),
    quoteId: z.string().nullable(),
    content: MessageContentSchema,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    editedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'MessageRecord' })

export type MessageView = z.infer<typeof MessageRecordSchema>
