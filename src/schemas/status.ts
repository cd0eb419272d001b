import { z } from 'zod'
import { EXAMPLE_MESSAGE_ID, EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from './examples'
import { mediaUrl } from './media-source'
import { type ChatAddress, phoneNumber } from './phone'
import { messageId, sessionId } from './send-fields'

/** Who may see a status: WhatsApp gives each its sender key in the stanza, so the list is bounded. */
export const STATUS_AUDIENCE_MAX = 1_000
/** WhatsApp's limit on a text status, in characters. */
export const STATUS_TEXT_MAX_CHARS = 700

/** The one chat every status lives in, as the API names it (records' `phone` and `chatJid`). */
export const STATUS_CHAT = 'status@broadcast'

const STATUS_ADDRESS: ChatAddress = { kind: 'status', input: STATUS_CHAT, jid: STATUS_CHAT }
const digitsOf = (contacts: { digits: string }[] | undefined) => contacts?.map((phone) => phone.digits)

/** WhatsApp's fonts for text statuses (ExtendedTextMessage.FontType). */
const FONTS = [0, 1, 2, 6, 7, 8, 9, 10] as const

const contacts = z
  .array(phoneNumber)
  .min(1)
  .max(STATUS_AUDIENCE_MAX)
  .optional()
  .meta({
    description: `Who sees it: up to ${STATUS_AUDIENCE_MAX} phone numbers. Omitted: every contact this session knows (people it has a 1:1 chat with or a name from), the ${STATUS_AUDIENCE_MAX} most recently seen.`,
  })

const caption = z.string().max(1024).optional()

export const PostTextStatusBody = z
  .strictObject({
    sessionId,
    text: z.string().trim().min(1).max(STATUS_TEXT_MAX_CHARS),
    backgroundColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, { error: 'must be a colour as #RRGGBB' })
      .optional()
      .meta({ description: 'The card’s colour, #RRGGBB.', example: '#128c7e' }),
    font: z
      .number()
      .int()
      .refine((value) => (FONTS as readonly number[]).includes(value), {
        error: `must be one of WhatsApp's fonts: ${FONTS.join(', ')}`,
      })
      .optional()
      .meta({
        description:
          'WhatsApp’s font: 0 system, 1 system text, 2 script, 6 system bold, 7 Morning Breeze, 8 Calistoga, 9 Exo 2, 10 Courier Prime.',
      }),
    contacts,
  })
  .transform(({ text, contacts, backgroundColor, font, ...rest }) => ({
    ...rest,
    phone: STATUS_ADDRESS,
    message: text,
    status: { contacts: digitsOf(contacts), backgroundColor, font },
  }))
  .meta({
    id: 'PostTextStatusRequest',
    example: {
      sessionId: EXAMPLE_SESSION_ID,
      text: 'Open until 8 pm today',
      backgroundColor: '#128c7e',
      font: 2,
      contacts: [EXAMPLE_PHONE],
    },
  })

export const PostImageStatusBody = z
  .strictObject({ sessionId, imageUrl: mediaUrl, caption, contacts })
  .transform(({ contacts, ...rest }) => ({ ...rest, phone: STATUS_ADDRESS, status: { contacts: digitsOf(contacts) } }))
  .meta({
    id: 'PostImageStatusRequest',
    example: {
      sessionId: EXAMPLE_SESSION_ID,
      imageUrl: 'https://example.com/photo.jpg',
      caption: 'New in',
      contacts: [EXAMPLE_PHONE],
    },
  })

export const PostVideoStatusBody = z
  .strictObject({
    sessionId,
    videoUrl: mediaUrl.meta({ description: 'An MP4 (H.264/AAC) goes as it is; other videos are converted.' }),
    caption,
    contacts,
  })
  .transform(({ contacts, ...rest }) => ({
    ...rest,
    phone: STATUS_ADDRESS,
    gifPlayback: false,
    status: { contacts: digitsOf(contacts) },
  }))
  .meta({
    id: 'PostVideoStatusRequest',
    example: {
      sessionId: EXAMPLE_SESSION_ID,
      videoUrl: 'https://example.com/clip.mp4',
      caption: 'Behind the counter',
      contacts: [EXAMPLE_PHONE],
    },
  })

export const DeleteStatusBody = z
  .strictObject({ sessionId, messageId })
  .transform((body) => ({ ...body, phone: STATUS_ADDRESS }))
  .meta({ id: 'DeleteStatusRequest', example: { sessionId: EXAMPLE_SESSION_ID, messageId: EXAMPLE_MESSAGE_ID } })

/** What a status send adds to a message send: its audience and, for text, its look. */
export interface StatusOptions {
  /** Digits; omitted: every contact the session knows. */
  contacts?: string[]
  backgroundColor?: string
  font?: number
}

export type PostTextStatusInput = z.infer<typeof PostTextStatusBody>
export type PostImageStatusInput = z.infer<typeof PostImageStatusBody>
export type PostVideoStatusInput = z.infer<typeof PostVideoStatusBody>
export type DeleteStatusInput = z.infer<typeof DeleteStatusBody>
