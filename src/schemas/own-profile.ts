import { z } from 'zod'
import { mediaUrl } from './media-source'
import { atLeastOneOf } from './requirements'
import { visibleName } from './session-name'

/** WhatsApp's limits: a push name of 25 characters, an about of 139. */
export const NAME_MAX_CHARS = 25
export const ABOUT_MAX_CHARS = 139

export const UpdateOwnProfileBody = atLeastOneOf(
  z.strictObject({
    name: visibleName(NAME_MAX_CHARS)
      .optional()
      .meta({ description: `The name contacts see with the account’s messages; 1 to ${NAME_MAX_CHARS} characters.` }),
    about: visibleName(ABOUT_MAX_CHARS)
      .optional()
      .meta({ description: `The about text; 1 to ${ABOUT_MAX_CHARS} characters.` }),
    pictureUrl: mediaUrl.nullable().optional().meta({
      description:
        'The profile photo: an http(s) URL the gateway fetches or a data: URL; a JPEG, PNG or WebP of at most 4096 px a side (a square JPEG of 192–640 px is sent as it is, anything else becomes the 640×640 middle square). null removes the photo.',
    }),
  }),
).meta({
  id: 'UpdateOwnProfileRequest',
  example: { name: 'Sales team', about: 'Replies within the hour', pictureUrl: 'https://example.com/photo.jpg' },
})

export const OwnProfileResponse = z
  .object({
    sessionId: z.string(),
    name: z.string().optional().meta({ description: 'As set, when it was changed.' }),
    about: z.string().optional().meta({ description: 'As set, when it was changed.' }),
    picture: z
      .object({
        removed: z.boolean(),
        side: z.int().nullable().meta({ description: 'Width and height of the photo set (px); null when removed.' }),
        converted: z
          .boolean()
          .meta({ description: 'Whether the gateway made it a 640×640 JPEG (else sent as it came).' }),
      })
      .optional()
      .meta({ description: 'When the photo was changed.' }),
  })
  .meta({ id: 'OwnProfile' })

export type UpdateOwnProfileInput = z.infer<typeof UpdateOwnProfileBody>
export type OwnProfileView = z.infer<typeof OwnProfileResponse>
