import type { EngineFact } from '../../engine/whatsapp/port'
import type { GroupMember, GroupNotice } from '../../engine/whatsapp/port/groups'
import type { GatewayContext } from '../context'
import { whileLinked } from './keep'
import { isSelf } from './self'
import { applyChange, applyParticipants, putGroup, removeGroup, replaceGroups } from './store'
import { partyView } from './view'

type Fact<T extends EngineFact['type']> = Extract<EngineFact, { type: T }>

const PAST = { add: 'added', remove: 'removed', promote: 'promoted', demote: 'demoted' } as const

/** The groups WhatsApp listed at login replace the store; no event (nothing changed, it was read). */
export function onGroupsSynced(ctx: GatewayContext, fact: Fact<'groups-synced'>): void {
  whileLinked(ctx, fact.sessionId, (tx) => replaceGroups(tx, fact.sessionId, fact.groups, ctx.clock.now()))
  ctx.logger.info({ sessionId: fact.sessionId, groups: fact.groups.length }, 'groups fetched')
}

/**
 * A change WhatsApp notified: the store follows it and its event is written in the same
 * transaction. The account's own joins and leaves are group.joined / group.left; everyone
 * else's are group.participants.
 */
export function onGroupNotice(ctx: GatewayContext, { sessionId, notice }: Fact<'group'>): void {
  whileLinked(ctx, sessionId, (tx, session) => {
    const now = ctx.clock.now()
    const record = (event: Parameters<typeof ctx.outbox.record>[1]) =>
      ctx.outbox.record(tx, { ...event, at: notice.at })
    const by = partyView(notice.author)
    switch (notice.kind) {
      case 'joined':
        putGroup(tx, sessionId, notice.group, now)
        record({
          sessionId,
          type: 'group.joined',
          data: { groupId: notice.groupJid, subject: notice.group.subject, reason: joinReason(session, notice), by },
        })
        return
      case 'changed':
        applyChange(tx, sessionId, notice.groupJid, notice.change, now)
        record({ sessionId, type: 'group.updated', data: { groupId: notice.groupJid, ...notice.change, by } })
        return
      case 'participants': {
        const membership = notice.action === 'add' || notice.action === 'remove'
        const others = membership ? notice.members.filter((m) => !isSelf(session, m)) : notice.members
        if (others.length > 0) {
          applyParticipants(tx, sessionId, notice.groupJid, notice.action, others, now)
          record({
            sessionId,
            type: 'group.participants',
            data: {
              groupId: notice.groupJid,
              action: PAST[notice.action],
              participants: others.map((m: GroupMember) => partyView(m)!),
              reason: notice.reason ?? null,
              by,
            },
          })
        }
        if (notice.action === 'remove' && others.length < notice.members.length) {
          removeGroup(tx, sessionId, notice.groupJid)
          const reason = isSelf(session, notice.author) ? 'left' : 'removed'
          record({ sessionId, type: 'group.left', data: { groupId: notice.groupJid, reason, by } })
        }
      }
    }
  })
}

function joinReason(session: Parameters<typeof isSelf>[0], notice: Extract<GroupNotice, { kind: 'joined' }>) {
  if (notice.reason === 'invite') return 'invite' as const
  return isSelf(session, notice.author) ? ('created' as const) : ('added' as const)
}
