import type { ParticipantAction, ParticipantOutcome } from '../../engine/whatsapp/port/groups'
import type { PhoneNumber } from '../../schemas/phone'
import type { ParticipantResult, ParticipantStatus } from '../../schemas/group'

const DONE: Record<ParticipantAction, ParticipantStatus> = {
  add: 'added',
  remove: 'removed',
  promote: 'promoted',
  demote: 'demoted',
}

/** Pure. WhatsApp's code for one participant, in words. */
export function participantStatus(action: ParticipantAction, code: number): ParticipantStatus {
  if (code === 200) return DONE[action]
  if (code === 403 && action === 'add') return 'privacy_refused'
  if (code === 404) return action === 'add' ? 'not_on_whatsapp' : 'not_participant'
  if (code === 408 && action === 'add') return 'recently_left'
  if (code === 409 && action === 'add') return 'already_participant'
  return 'failed'
}

/** Each number once, by digits: `+1 555-123-0001` and `15551230001` are one participant. */
export const distinctDigits = (phones: PhoneNumber[]) => [...new Set(phones.map((p) => p.digits))]

/** Pure. The outcomes (keyed by digits) back onto the phones as the client wrote them, in order. */
export function resultsAsSent(
  phones: PhoneNumber[],
  outcomes: ParticipantOutcome[],
  action: ParticipantAction,
): ParticipantResult[] {
  const byDigits = new Map(outcomes.map((outcome) => [outcome.phone, outcome]))
  return phones.map(({ input, digits }) => {
    const outcome = byDigits.get(digits) ?? { phone: digits, code: 404 }
    return {
      phone: input,
      status: participantStatus(action, outcome.code),
      code: outcome.code,
      ...(outcome.invite
        ? { invite: { code: outcome.invite.code, expiresAt: outcome.invite.expiresAt.toISOString() } }
        : {}),
    }
  })
}
