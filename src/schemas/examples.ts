/**
 * The values request examples use (Swagger UI fills "Try it out" with them). Each example is a
 * request that succeeds as it is against a connected session once `sessionId` (and, for edit and
 * delete, `messageId`) name the caller's own: the phone is the simulator's first contact
 * (`npm run dev:sim`), no optional field carries a placeholder that would fail (a quoteId of
 * "string"). test/openapi/examples.test.ts sends every one.
 */
export const EXAMPLE_SESSION_ID = 'ses_replace_with_your_session_id'
export const EXAMPLE_PHONE = '15551230001'
export const EXAMPLE_MESSAGE_ID = '3EB0REPLACEWITHYOURMESSAGEID'
export const EXAMPLE_WEBHOOK_URL = 'https://hooks.example.com/wa'
/** Letters only, so that it is a well-formed code no group has: the caller's own comes from GET /v1/group/{groupId}/invite. */
export const EXAMPLE_INVITE_CODE = 'ReplaceWithTheGroupsInviteCode'
