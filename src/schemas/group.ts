import { z } from 'zod'
import { echo } from './echo'
import { EXAMPLE_INVITE_CODE, EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from './examples'
import { atLeastOneOf } from './requirements'
import { GROUP_ID, phoneNumber } from './phone'
import { visibleName, visibleText } from './session-name'

/** WhatsApp's limits: what it refuses (406) is refused here first, with the field named. */
export const SUBJECT_MAX_CHARS = 100
export const DESCRIPTION_MAX_CHARS = 2048
export const MAX_PHONES_PER_GROUP_REQUEST = 256
const INVITE_CODE = /^[A-Za-z0-9]{10,64}$/
/** chat.whatsapp.com/<code> or chat.whatsapp.com/invite/<code>, http(s), nothing after the code. */
const INVITE_LINK = /^https?:\/\/chat\.whatsapp\.com\/(?:invite\/)?([A-Za-z0-9]{10,64})\/?$/

const sessionId = z.string().min(1).max(100)

export const groupId = z
  .string()
  .max(64)
  .refine((value) => GROUP_ID.test(value), {
    error: (issue) => `${echo(issue.input)} is not a group id: <digits>@g.us or <digits>-<digits>@g.us`,
  })
  .meta({ description: 'A group id as GET /v1/group/all lists it.', example: '120363025246125888@g.us' })

/**
 * What every member is shown: the text policy of names. A subject is one line; a description
 * may have several (WhatsApp shows them), and "" deletes it.
 */
const subject = visibleName(SUBJECT_MAX_CHARS)
const description = z.union([z.literal(''), visibleText(DESCRIPTION_MAX_CHARS, { lines: 'many' })])

const phones = (min: number) =>
  z
    .array(phoneNumber)
    .min(min, 'send at least one number')
    .max(MAX_PHONES_PER_GROUP_REQUEST, {
      error: (issue) =>
        `at most ${MAX_PHONES_PER_GROUP_REQUEST} numbers per request (got ${(issue.input as unknown[]).length})`,
    })

export const GroupIdParam = z.object({ groupId })
export const GroupSessionQuery = z.strictObject({ sessionId })
/** Bodies that only name the session (an id per route: OpenAPI registers each request body once). */
const sessionOnly = (id: string) =>
  z.strictObject({ sessionId }).meta({ id, example: { sessionId: EXAMPLE_SESSION_ID } })
export const RevokeGroupInviteBody = sessionOnly('RevokeGroupInviteRequest')
export const LeaveGroupBody = sessionOnly('LeaveGroupRequest')

export const CreateGroupBody = z
  .strictObject({
    sessionId,
    subject: subject.meta({
      description: `The group's name, 1 to ${SUBJECT_MAX_CHARS} characters on one line, NFC-normalised and trimmed; no control or bidirectional characters.`,
    }),
    participants: phones(0).meta({
      description: `Up to ${MAX_PHONES_PER_GROUP_REQUEST} phone numbers (not the session's own: WhatsApp adds the creator). Each gets its own result: a number WhatsApp cannot add is reported, not an error.`,
    }),
  })
  .meta({
    id: 'CreateGroupRequest',
    example: { sessionId: EXAMPLE_SESSION_ID, subject: 'Team', participants: [EXAMPLE_PHONE] },
  })

export const UpdateGroupBody = atLeastOneOf(
  z.strictObject({
    sessionId,
    subject: subject.optional(),
    description: description
      .nullable()
      .optional()
      .meta({
        description: `Up to ${DESCRIPTION_MAX_CHARS} characters, line feeds allowed, NFC-normalised and trimmed; no other control characters, no bidirectional ones. null or "" deletes it.`,
      }),
    announce: z.boolean().optional().meta({ description: 'true: only admins send messages.' }),
    restrict: z.boolean().optional().meta({ description: 'true: only admins edit the group’s info.' }),
  }),
  ['subject', 'description', 'announce', 'restrict'],
).meta({
  id: 'UpdateGroupRequest',
  example: { sessionId: EXAMPLE_SESSION_ID, subject: 'Team, renamed', restrict: true },
})

export const participantActions = ['add', 'remove', 'promote', 'demote'] as const

export const GroupParticipantsBody = z
  .strictObject({
    sessionId,
    action: z.enum(participantActions),
    phones: phones(1).meta({
      description: `1 to ${MAX_PHONES_PER_GROUP_REQUEST} phone numbers (not the session's own: leave with POST /v1/group/{groupId}/leave).`,
    }),
  })
  .meta({
    id: 'GroupParticipantsRequest',
    example: { sessionId: EXAMPLE_SESSION_ID, action: 'add', phones: ['+1 555-123-0002'] },
  })

export const JoinGroupBody = atLeastOneOf(
  z.strictObject({
    sessionId,
    inviteCode: z.string().max(64).regex(INVITE_CODE, 'is not an invite code: 10 to 64 letters and digits').optional(),
    link: z
      .string()
      .max(200)
      .regex(INVITE_LINK, 'is not a group invite link: https://chat.whatsapp.com/<code>')
      .optional()
      .meta({ description: 'https://chat.whatsapp.com/<code>, as GET /v1/group/{groupId}/invite answers it.' }),
  }),
  ['inviteCode', 'link'],
)
  .refine((body) => body.inviteCode === undefined || body.link === undefined, {
    message: 'send inviteCode or link, not both',
  })
  .transform((body) => ({ sessionId: body.sessionId, code: body.inviteCode ?? INVITE_LINK.exec(body.link!)![1]! }))
  .meta({ id: 'JoinGroupRequest', example: { sessionId: EXAMPLE_SESSION_ID, inviteCode: EXAMPLE_INVITE_CODE } })

const Party = z
  .object({
    phone: z.string().nullable().meta({ description: 'Digits, where WhatsApp revealed them.' }),
    lid: z.string().nullable().meta({ description: 'WhatsApp’s LID (`<digits>@lid`), where known.' }),
  })
  .meta({ id: 'GroupParty' })

export const GroupSummarySchema = z
  .object({
    groupId: z.string(),
    subject: z.string(),
    size: z.int().meta({ description: 'Participants, the account included.' }),
    isAdmin: z.boolean().meta({ description: 'Whether the session’s account is an admin of the group.' }),
    announce: z.boolean().meta({ description: 'Only admins send messages.' }),
    restrict: z.boolean().meta({ description: 'Only admins edit the group’s info.' }),
    createdAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'GroupSummary' })

export const GroupSchema = GroupSummarySchema.extend({
  description: z.string().nullable(),
  owner: Party.nullable().meta({ description: 'The creator, when WhatsApp names one.' }),
  participants: z.array(
    Party.extend({ admin: z.enum(['superadmin', 'admin']).nullable() }).meta({ id: 'GroupParticipant' }),
  ),
}).meta({ id: 'Group' })

export const GroupListResponse = z.object({ groups: z.array(GroupSummarySchema) }).meta({ id: 'GroupList' })

export const participantStatuses = [
  'added',
  'removed',
  'promoted',
  'demoted',
  'privacy_refused',
  'not_on_whatsapp',
  'not_participant',
  'already_participant',
  'recently_left',
  'failed',
] as const

export const ParticipantResultSchema = z
  .object({
    phone: z.string().meta({ description: 'Exactly as sent.' }),
    status: z.enum(participantStatuses).meta({
      description:
        'added | removed | promoted | demoted when done; privacy_refused (their settings refuse being added: send them inviteLink), not_on_whatsapp, not_participant, already_participant, recently_left (left by themselves lately), failed.',
    }),
    code: z.int().meta({ description: 'WhatsApp’s own code for it: 200 when done.' }),
    invite: z
      .object({
        code: z.string(),
        expiresAt: z.iso.datetime(),
      })
      .optional()
      .meta({ description: 'privacy_refused: the invite WhatsApp offers to send them instead.' }),
  })
  .meta({ id: 'GroupParticipantResult' })

export const CreateGroupResponse = z
  .object({ group: GroupSchema, participants: z.array(ParticipantResultSchema) })
  .meta({ id: 'CreatedGroup' })

export const GroupParticipantsResponse = z
  .object({
    groupId: z.string(),
    action: z.enum(participantActions),
    results: z.array(ParticipantResultSchema).meta({ description: 'One per phone, in request order.' }),
  })
  .meta({ id: 'GroupParticipantsResult' })

export const GroupInviteResponse = z
  .object({
    groupId: z.string(),
    inviteCode: z.string(),
    inviteLink: z.string().meta({ description: 'https://chat.whatsapp.com/<inviteCode>' }),
  })
  .meta({ id: 'GroupInvite' })

export const LeaveGroupResponse = z.object({ groupId: z.string(), left: z.literal(true) }).meta({ id: 'LeftGroup' })

export type CreateGroupInput = z.infer<typeof CreateGroupBody>
export type UpdateGroupInput = z.infer<typeof UpdateGroupBody>
export type GroupParticipantsInput = z.infer<typeof GroupParticipantsBody>
export type JoinGroupInput = z.infer<typeof JoinGroupBody>
export type GroupView = z.infer<typeof GroupSchema>
export type GroupSummaryView = z.infer<typeof GroupSummarySchema>
export type ParticipantResult = z.infer<typeof ParticipantResultSchema>
export type ParticipantStatus = (typeof participantStatuses)[number]
