import { z } from 'zod'
import { EXAMPLE_SESSION_ID } from './examples'
import { personAddress } from './phone'

const sessionId = z.string().min(1).max(100)

export const ContactPhoneParam = z.object({ phone: personAddress })
export const ContactSessionQuery = z.strictObject({ sessionId })

/** Bodies that only name the session (an id per route: OpenAPI registers each request body once). */
const sessionOnly = (id: string) =>
  z.strictObject({ sessionId }).meta({ id, example: { sessionId: EXAMPLE_SESSION_ID } })
export const BlockContactBody = sessionOnly('BlockContactRequest')
export const UnblockContactBody = sessionOnly('UnblockContactRequest')
export const SubscribePresenceBody = sessionOnly('SubscribePresenceRequest')
export const UnsubscribePresenceBody = sessionOnly('UnsubscribePresenceRequest')

const phoneView = z.string().nullable().meta({ description: 'The number (digits), where known.' })
const lidView = z.string().nullable().meta({ description: 'WhatsApp’s LID (`<digits>@lid`), where known.' })

export const BusinessProfileSchema = z
  .object({
    description: z.string().nullable(),
    category: z.string().nullable(),
    email: z.string().nullable(),
    website: z.string().nullable(),
    address: z.string().nullable(),
    hours: z
      .object({
        timezone: z.string().nullable().meta({ example: 'Europe/Berlin' }),
        days: z.array(
          z.object({
            day: z.string().meta({ description: 'sun, mon, tue, wed, thu, fri or sat.' }),
            mode: z.string().meta({ description: 'specific_hours, open_24h or appointment_only.' }),
            open: z.string().nullable().meta({ description: 'HH:MM local time (specific_hours).', example: '09:00' }),
            close: z.string().nullable().meta({ description: 'HH:MM local time (specific_hours).', example: '18:00' }),
          }),
        ),
      })
      .nullable()
      .meta({ description: 'Opening hours, when the business published them.' }),
  })
  .meta({ id: 'BusinessProfile' })

export const ContactProfileResponse = z
  .object({
    phone: phoneView,
    lid: lidView,
    name: z.string().nullable().meta({
      description:
        'The push name their latest message to this session carried; null when none arrived (WhatsApp tells it with messages only).',
    }),
    about: z.string().nullable().meta({ description: 'Their about text; null when there is none or they hide it.' }),
    aboutSetAt: z.iso.datetime().nullable(),
    pictureUrl: z.string().nullable().meta({
      description:
        'Their profile photo (a JPEG on WhatsApp’s media servers; the URL expires after a while). null: no photo, or hidden from this account.',
    }),
    business: BusinessProfileSchema.nullable().meta({ description: 'Only for business accounts.' }),
  })
  .meta({ id: 'ContactProfile' })

export const BlockResponse = z
  .object({
    phone: phoneView,
    lid: lidView,
    blocked: z.boolean().meta({ description: 'The state now: true after a block, false after an unblock.' }),
  })
  .meta({ id: 'BlockState' })

export const BlockedListResponse = z
  .object({
    blocked: z.array(z.object({ phone: phoneView, lid: lidView }).meta({ id: 'BlockedContact' })),
  })
  .meta({ id: 'BlockedContacts' })

export type ContactProfileView = z.infer<typeof ContactProfileResponse>
export type BusinessProfileView = z.infer<typeof BusinessProfileSchema>

export const PresenceSubscriptionResponse = z
  .object({
    sessionId: z.string(),
    phone: phoneView,
    lid: lidView,
    subscribed: z.boolean().meta({ description: 'The state now: true after a subscribe, false after an unsubscribe.' }),
  })
  .meta({ id: 'PresenceSubscription' })
