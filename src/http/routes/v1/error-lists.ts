import type { ErrorCode } from '../../../errors'

/*
 * The error codes routes of a kind answer besides 200, named once; a route lists its own only
 * when no other route shares them. Codes of one status keep their order (the document's
 * examples follow it).
 */

/** A request naming something that may not exist: a session, a message, a delivery, a workspace. */
export const LOOKUP_ERRORS = ['validation_error', 'not_found'] as const satisfies ErrorCode[]

/** A query or command a session sends to WhatsApp: it must be connected, WhatsApp may fail or be slow. */
export const SESSION_CALL_ERRORS = [
  ...LOOKUP_ERRORS,
  'session_not_connected',
  'upstream_error',
  'upstream_timeout',
] as const satisfies ErrorCode[]

/** A label change: only a WhatsApp Business account has labels. */
export const LABEL_ERRORS = [...SESSION_CALL_ERRORS, 'not_business_account'] as const satisfies ErrorCode[]

/** A group command WhatsApp refuses to a non-admin. */
export const GROUP_ADMIN_ERRORS = [...SESSION_CALL_ERRORS, 'forbidden'] as const satisfies ErrorCode[]

/** A change to a sent message (edit, delete, reaction): the message may not allow it. */
export const MESSAGE_CHANGE_ERRORS = [...SESSION_CALL_ERRORS, 'message_not_editable'] as const satisfies ErrorCode[]

/** What any send can answer besides 200 (forbidden: a channel the account does not run). */
export const SEND_ERRORS = [
  ...SESSION_CALL_ERRORS,
  'forbidden',
  'idempotency_key_reused',
] as const satisfies ErrorCode[]

/** Sends that fetch a client URL can also answer 413 and 422. */
export const MEDIA_SEND_ERRORS = [
  ...SEND_ERRORS,
  'payload_too_large',
  'media_unavailable',
] as const satisfies ErrorCode[]
