import { z } from 'zod'
import { atLeastOneOf } from './requirements'

const audience = (what: string) =>
  z.enum(['all', 'contacts', 'contact_blacklist', 'none']).meta({
    description: `Who sees ${what}: everyone, contacts, contacts except some (the list is kept on the phone), nobody.`,
  })

/** WhatsApp's privacy settings, named as its privacy screen names them, with its own values. */
const settings = {
  lastSeen: audience('when the account was last online'),
  online: z
    .enum(['all', 'match_last_seen'])
    .meta({ description: 'Who sees the account online: everyone, or the same people as its last seen.' }),
  profilePhoto: audience('the profile photo'),
  about: audience('the about text'),
  groups: z
    .enum(['all', 'contacts', 'contact_blacklist'])
    .meta({ description: 'Who may add the account to groups: everyone, contacts, contacts except some.' }),
  readReceipts: z
    .enum(['all', 'none'])
    .meta({ description: 'Whether read receipts are sent (none: nobody sees blue ticks, and the account sees none).' }),
  calls: z
    .enum(['all', 'known'])
    .meta({ description: 'Who may call: everyone, or only known numbers (others are silenced).' }),
}

export const PrivacySettingsSchema = z
  .object(
    Object.fromEntries(Object.entries(settings).map(([key, schema]) => [key, schema.nullable()])) as {
      [K in keyof typeof settings]: z.ZodNullable<(typeof settings)[K]>
    },
  )
  .meta({
    id: 'PrivacySettings',
    description: 'The account’s privacy settings as WhatsApp answers them; null where WhatsApp did not say.',
  })

export const PrivacyResponse = z
  .object({ sessionId: z.string(), privacy: PrivacySettingsSchema })
  .meta({ id: 'SessionPrivacy' })

export const UpdatePrivacyBody = atLeastOneOf(
  z.strictObject(
    Object.fromEntries(Object.entries(settings).map(([key, schema]) => [key, schema.optional()])) as {
      [K in keyof typeof settings]: z.ZodOptional<(typeof settings)[K]>
    },
  ),
).meta({ id: 'UpdatePrivacyRequest', example: { lastSeen: 'contacts', readReceipts: 'none' } })

export type UpdatePrivacyInput = z.infer<typeof UpdatePrivacyBody>
