import { isLive, type Session } from '../../db/schema'
import type { GroupChange, GroupInfo, ParticipantAction, ParticipantOutcome } from '../../engine/whatsapp/port/groups'
import type { DbOrTx } from '../../webhooks/outbox'
import type { GatewayContext } from '../context'
import { sessionById } from '../sessions/view'
import { applyChange, applyParticipants, putGroup, removeGroup } from './store'

/**
 * Every write to a session's group store runs here: in one immediate transaction, and only
 * while the session is linked (a late fact or answer of a session that ended writes nothing,
 * its store having been emptied with its last status change).
 */
export function whileLinked(ctx: GatewayContext, sessionId: string, write: (tx: DbOrTx, session: Session) => void) {
  ctx.db.transaction(
    (tx) => {
      const session = sessionById(tx, sessionId)
      if (session && isLive(session.status)) write(tx, session)
    },
    { behavior: 'immediate' },
  )
}

/*
 * What a command WhatsApp carried out tells the store at once, so a read right after a 200
 * already shows it (the notification of the same change, arriving before or after, lands on
 * the same rows). Its events come from that notification, not from here.
 */

export function storeGroup(ctx: GatewayContext, sessionId: string, group: GroupInfo): void {
  whileLinked(ctx, sessionId, (tx) => putGroup(tx, sessionId, group, ctx.clock.now()))
}

export function unstoreGroup(ctx: GatewayContext, sessionId: string, groupId: string): void {
  whileLinked(ctx, sessionId, (tx) => void removeGroup(tx, sessionId, groupId))
}

export function storeChange(ctx: GatewayContext, sessionId: string, groupId: string, change: GroupChange): void {
  whileLinked(ctx, sessionId, (tx) => applyChange(tx, sessionId, groupId, change, ctx.clock.now()))
}

export function storeOutcomes(
  ctx: GatewayContext,
  sessionId: string,
  groupId: string,
  action: ParticipantAction,
  outcomes: ParticipantOutcome[],
): void {
  const members = outcomes.flatMap((outcome) =>
    outcome.code === 200 ? [outcome.member ?? { jid: `${outcome.phone}@s.whatsapp.net`, phone: outcome.phone }] : [],
  )
  if (members.length === 0) return
  whileLinked(ctx, sessionId, (tx) => applyParticipants(tx, sessionId, groupId, action, members, ctx.clock.now()))
}
