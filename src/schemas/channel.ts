import { z } from 'zod'
import { messageTypes } from '../shared/message-types'
import { EXAMPLE_SESSION_ID } from './examples'
import { MessageContentSchema } from './message-record'
import { CHANNEL_JID } from './phone'

const sessionId = z.string().min(1).max(100)
/** https://whatsapp.com/channel/<code> (www. optional), or the code alone. */
const CHANNEL_LINK = /^(?:https:\/\/(?:www\.)?whatsapp\.com\/channel\/)?([A-Za-z0-9]{10,40})\/?$/
export const CHANNEL_MESSAGES_MAX = 100

const echo = (input: string) => JSON.stringify(input.length > 60 ? `${input.slice(0, 60)}…` : input)

/** A channel id, `<digits>@newsletter` or its digits alone: parses to the jid. */
export const channelId = z
  .string()
  .transform((input, ctx) => {
    // The digits alone are taken too; the id rule itself is the send address's (CHANNEL_JID).
    const jid = /^\d+$/.test(input) ? `${input}@newsletter` : input
    if (CHANNEL_JID.test(jid)) return jid
    ctx.issues.push({ code: 'custom', input, message: `${echo(input)} is not a channel id: <digits>@newsletter` })
    return z.NEVER
  })
  .meta({
    description: 'The channel: `<digits>@newsletter`, or its digits alone.',
    example: '120363025246125888@newsletter',
  })

export const channelLink = z
  .string()
  .transform((input, ctx) => {
    const match = CHANNEL_LINK.exec(input)
    if (match) return match[1]!
    ctx.issues.push({
      code: 'custom',
      input,
      message: `${echo(input)} is not a channel link: https://whatsapp.com/channel/<code>, or the code alone`,
    })
    return z.NEVER
  })
  .meta({ description: 'The channel’s link, https://whatsapp.com/channel/<code>, or the code alone.' })

export const ChannelIdParam = z.object({ channelId })
export const ChannelSessionQuery = z.strictObject({ sessionId })

export const ChannelInfoQuery = z
  .strictObject({ sessionId, id: channelId.optional(), link: channelLink.optional() })
  .refine((query) => (query.id === undefined) !== (query.link === undefined), {
    message: 'Give the channel by id or by link, one of them',
    path: ['id'],
  })

export const ChannelMessagesQuery = z.strictObject({
  sessionId,
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(CHANNEL_MESSAGES_MAX)
    .default(20)
    .meta({ description: `How many of the latest posts, 1 to ${CHANNEL_MESSAGES_MAX} (default 20).` }),
})

const sessionOnly = (id: string) =>
  z.strictObject({ sessionId }).meta({ id, example: { sessionId: EXAMPLE_SESSION_ID } })
export const FollowChannelBody = sessionOnly('FollowChannelRequest')
export const UnfollowChannelBody = sessionOnly('UnfollowChannelRequest')

export const ChannelSchema = z
  .object({
    id: z.string().meta({ description: '`<digits>@newsletter`', example: '120363025246125888@newsletter' }),
    name: z.string(),
    description: z.string().nullable(),
    link: z.string().nullable().meta({ description: 'https://whatsapp.com/channel/<code>, where WhatsApp gives it.' }),
    subscribers: z.number().int().nullable(),
    verified: z.boolean(),
    createdAt: z.iso.datetime().nullable(),
    role: z.enum(['owner', 'admin', 'follower', 'guest']).meta({
      description: 'What the account is to it: owner or admin (it may post), follower, or guest (neither).',
    }),
    muted: z.boolean(),
  })
  .meta({ id: 'Channel' })

export const ChannelListResponse = z
  .object({ sessionId: z.string(), channels: z.array(ChannelSchema) })
  .meta({ id: 'ChannelList' })

export const ChannelResponse = z.object({ sessionId: z.string(), channel: ChannelSchema }).meta({ id: 'ChannelInfo' })

export const ChannelFollowResponse = z
  .object({ sessionId: z.string(), channelId: z.string(), following: z.boolean() })
  .meta({ id: 'ChannelFollow' })

export const ChannelPostSchema = z
  .object({
    serverId: z.number().int().meta({ description: 'The post’s number in its channel.' }),
    messageId: z.string(),
    type: z.enum(messageTypes),
    content: MessageContentSchema,
    postedAt: z.iso.datetime(),
  })
  .meta({ id: 'ChannelPost' })

export const ChannelMessagesResponse = z
  .object({ sessionId: z.string(), channelId: z.string(), messages: z.array(ChannelPostSchema) })
  .meta({ id: 'ChannelMessages', description: 'Oldest first.' })
