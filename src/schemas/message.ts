import { z } from 'zod'
import { fileName } from './file-name'
import { mediaUrl } from './media-source'
import { ContactCard, MAX_CONTACT_CARDS } from './contact-card'
import { EXAMPLE_MESSAGE_ID } from './examples'
import { alias, eitherRequired } from './requirements'
import { sendAddress } from './phone'
import { MessageRecordSchema } from './message-record'
import {
  addressed,
  messageId,
  PHONE,
  quoteId,
  REFERENCED,
  referenced,
  sessionId,
  to,
  withPhone,
  withPhoneAndMessageId,
} from './send-fields'

export const MAX_LIST_ROWS = 5
export const MAX_BUTTONS = 5

export const SendTextBody = eitherRequired(
  z.strictObject({
    ...addressed,
    message: z.string().min(1).max(65_536).optional(),
    text: z.string().min(1).max(65_536).optional().meta(alias('message')),
    quoteId,
    linkPreview: z.boolean().optional().meta({
      description:
        'Show a preview (title, description, picture) of the first URL in the text; default: on when the text has a URL and the operator allows previews (LINK_PREVIEWS). Fetched within 3 s and 256 KiB; if it cannot be made the text goes without one (`content.linkPreview: null`).',
    }),
  }),
  [PHONE, ['message', 'text']],
)
  .transform(({ to, text, ...b }) => ({ ...b, phone: (b.phone ?? to)!, message: (b.message ?? text)! }))
  .meta({ id: 'SendTextRequest', example: { ...to, message: 'Hello from the gateway' } })

export const SendImageBody = eitherRequired(
  z.strictObject({ ...addressed, imageUrl: mediaUrl, caption: z.string().max(1024).optional(), quoteId }),
  [PHONE],
)
  .transform(withPhone)
  .meta({
    id: 'SendImageRequest',
    example: { ...to, imageUrl: 'https://example.com/photo.jpg', caption: 'The photo' },
  })

export const SendAudioBody = eitherRequired(
  z.strictObject({
    ...addressed,
    audioUrl: mediaUrl.meta({ description: 'mp3, ogg (vorbis or opus) or opus.' }),
    ptt: z
      .boolean()
      .default(false)
      .meta({ description: 'true: sent as a voice note (converted to OGG/Opus); false: as an audio file.' }),
    quoteId,
  }),
  [PHONE],
)
  .transform(withPhone)
  .meta({ id: 'SendAudioRequest', example: { ...to, audioUrl: 'https://example.com/note.mp3', ptt: true } })

export const SendStickerBody = eitherRequired(
  z.strictObject({
    ...addressed,
    stickerUrl: mediaUrl.meta({
      description:
        'A .webp, .gif, .png or .jpg image (at most 4096×4096; a GIF stays animated) → a 512×512 WebP sticker.',
    }),
    quoteId,
  }),
  [PHONE],
)
  .transform(withPhone)
  .meta({ id: 'SendStickerRequest', example: { ...to, stickerUrl: 'https://example.com/sticker.webp' } })

export const SendVideoBody = eitherRequired(
  z.strictObject({
    ...addressed,
    videoUrl: mediaUrl.meta({
      description: 'An MP4 (H.264/AAC) is sent as it is; other videos and GIFs are converted to one.',
    }),
    caption: z.string().max(1024).optional(),
    gifPlayback: z
      .boolean()
      .default(false)
      .meta({ description: 'Shown as a looping, silent GIF (the sound is dropped when converting).' }),
    quoteId,
  }),
  [PHONE],
)
  .transform(withPhone)
  .meta({ id: 'SendVideoRequest', example: { ...to, videoUrl: 'https://example.com/clip.mp4', caption: 'The clip' } })

export const SendDocumentBody = eitherRequired(
  z.strictObject({
    ...addressed,
    documentUrl: mediaUrl.meta({ description: 'Any file up to MEDIA_MAX_BYTES.' }),
    fileName: fileName.optional().meta({
      description: 'The name the contact sees; default: the URL’s last path segment (made safe), else `document`.',
    }),
    caption: z.string().max(1024).optional(),
    quoteId,
  }),
  [PHONE],
)
  .transform(withPhone)
  .meta({
    id: 'SendDocumentRequest',
    example: { ...to, documentUrl: 'https://example.com/report.pdf', fileName: 'Q3 report.pdf', caption: 'The report' },
  })

export const SendContactBody = eitherRequired(
  z.strictObject({
    ...addressed,
    contacts: z.array(ContactCard).min(1).max(MAX_CONTACT_CARDS),
    quoteId,
  }),
  [PHONE],
)
  .transform(withPhone)
  .meta({
    id: 'SendContactRequest',
    description: `1 to ${MAX_CONTACT_CARDS} contact cards, sent as vCards 3.0.`,
    example: { ...to, contacts: [{ name: 'Ana Lima', phones: ['+1 555-123-0002'], organization: 'Acme' }] },
  })

export const SendLocationBody = eitherRequired(
  z.strictObject({
    ...addressed,
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    quoteId,
  }),
  [PHONE],
)
  .transform(withPhone)
  .meta({ id: 'SendLocationRequest', example: { ...to, latitude: 48.8584, longitude: 2.2945 } })

const ListRow = z.strictObject({
  title: z.string().min(1).max(24),
  rowId: z.string().min(1).max(200),
  description: z.string().max(72).optional(),
})
const ListSection = z.strictObject({ title: z.string().min(1).max(24), rows: z.array(ListRow).min(1) })

/**
 * A list's row ids and a message's button ids are what WhatsApp sends back when one is chosen:
 * two alike could not be told apart. Each repeat is an issue at its own path (`…rowId`, `…buttonId`).
 */
function flagRepeats(ids: { id: string; path: (string | number)[] }[], addIssue: (issue: z.core.$ZodRawIssue) => void) {
  const seen = new Map<string, string>()
  for (const { id, path } of ids) {
    const first = seen.get(id)
    if (first === undefined) seen.set(id, path.join('.'))
    else addIssue({ code: 'custom', path, input: id, message: `repeats the id of ${first}; ids must be unique` })
  }
}

export const SendListBody = eitherRequired(
  z.strictObject({
    ...addressed,
    text: z.string().min(1).max(1024),
    buttonText: z.string().min(1).max(20).meta({ description: 'Label of the button that opens the list.' }),
    title: z.string().max(60).optional(),
    footer: z.string().max(60).optional(),
    sections: z.array(ListSection).min(1).max(MAX_LIST_ROWS),
    quoteId,
  }),
  [PHONE],
)
  .superRefine((b, ctx) => {
    const rows = b.sections.reduce((n, s) => n + s.rows.length, 0)
    if (rows > MAX_LIST_ROWS) {
      ctx.addIssue({
        code: 'custom',
        path: ['sections'],
        message: `at most ${MAX_LIST_ROWS} rows across all sections (got ${rows})`,
      })
    }
    const rowIds = b.sections.flatMap((section, i) =>
      section.rows.map((row, j) => ({ id: row.rowId, path: ['sections', i, 'rows', j, 'rowId'] })),
    )
    flagRepeats(rowIds, (issue) => ctx.addIssue(issue))
  })
  .transform(withPhone)
  .meta({
    id: 'SendListRequest',
    example: {
      ...to,
      text: 'What can we help with?',
      buttonText: 'Choose',
      sections: [
        {
          title: 'Orders',
          rows: [
            { title: 'Where is my order?', rowId: 'order-status' },
            { title: 'Return an item', rowId: 'return', description: 'Within 30 days' },
          ],
        },
      ],
    },
    description: `Paid plans. At most ${MAX_LIST_ROWS} rows across all sections, each rowId different.`,
  })

const Button = eitherRequired(
  z.strictObject({
    buttonId: z.string().min(1).max(256),
    buttonText: z.string().min(1).max(20).optional(),
    text: z.string().min(1).max(20).optional().meta(alias('buttonText')),
  }),
  [['buttonText', 'text']],
).transform(({ text, ...b }) => ({ buttonId: b.buttonId, buttonText: (b.buttonText ?? text)! }))

export const SendButtonsBody = eitherRequired(
  z.strictObject({
    ...addressed,
    message: z.string().min(1).max(1024).optional(),
    text: z.string().min(1).max(1024).optional().meta(alias('message')),
    footer: z.string().max(60).optional(),
    buttons: z
      .array(Button)
      .min(1)
      .max(MAX_BUTTONS, {
        error: (issue) => `at most ${MAX_BUTTONS} buttons (got ${(issue.input as unknown[]).length})`,
      }),
    quoteId,
  }),
  [PHONE, ['message', 'text']],
)
  .superRefine((b, ctx) => {
    flagRepeats(
      b.buttons.map((button, i) => ({ id: button.buttonId, path: ['buttons', i, 'buttonId'] })),
      (issue) => ctx.addIssue(issue),
    )
  })
  .transform(({ to, text, ...b }) => ({ ...b, phone: (b.phone ?? to)!, message: (b.message ?? text)! }))
  .meta({
    id: 'SendButtonsRequest',
    example: {
      ...to,
      message: 'Did this answer your question?',
      buttons: [
        { buttonId: 'yes', buttonText: 'Yes' },
        { buttonId: 'no', buttonText: 'No' },
      ],
    },
    description: `Paid plans. At most ${MAX_BUTTONS} buttons, each buttonId different.`,
  })

export const EditMessageBody = eitherRequired(
  z.strictObject({ ...referenced, newMessage: z.string().min(1).max(65_536) }),
  REFERENCED,
)
  .transform(withPhoneAndMessageId)
  .meta({
    id: 'EditMessageRequest',
    example: { ...to, messageId: EXAMPLE_MESSAGE_ID, newMessage: 'Hello again, corrected' },
  })

export const DeleteMessageBody = eitherRequired(z.strictObject(referenced), REFERENCED)
  .transform(withPhoneAndMessageId)
  .meta({ id: 'DeleteMessageRequest', example: { ...to, messageId: EXAMPLE_MESSAGE_ID } })

export const DeleteMessageResponse = z
  .object({ success: z.boolean(), message: z.string() })
  .meta({ id: 'DeleteMessageResponse' })

export const ListMessagesQuery = z.strictObject({
  sessionId,
  phone: sendAddress.optional().meta({ description: 'Only this chat (or this channel: the account’s posts to it).' }),
  direction: z.enum(['inbound', 'outbound']).optional(),
  source: z.enum(['api', 'phone', 'history', 'live']).optional().meta({
    description:
      'Only records from there: api (sent through this gateway), phone (sent from the account’s own WhatsApp), history (imported from the phone’s history at linking), live (everything but history).',
  }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional().meta({ description: 'nextCursor of the previous page.' }),
})

export const MessageListResponse = z
  .object({ messages: z.array(MessageRecordSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'MessageList' })

export const GetMessageParams = z.object({ messageId })
export const GetMessageQuery = z.strictObject({ sessionId })

export type SendTextInput = z.infer<typeof SendTextBody>
export type SendImageInput = z.infer<typeof SendImageBody>
export type SendAudioInput = z.infer<typeof SendAudioBody>
export type SendStickerInput = z.infer<typeof SendStickerBody>
export type SendLocationInput = z.infer<typeof SendLocationBody>
export type SendVideoInput = z.infer<typeof SendVideoBody>
export type SendDocumentInput = z.infer<typeof SendDocumentBody>
export type SendContactInput = z.infer<typeof SendContactBody>
export type SendListInput = z.infer<typeof SendListBody>
export type SendButtonsInput = z.infer<typeof SendButtonsBody>
export type EditMessageInput = z.infer<typeof EditMessageBody>
export type DeleteMessageInput = z.infer<typeof DeleteMessageBody>
export type ListMessagesInput = z.infer<typeof ListMessagesQuery>
