import { and, eq } from 'drizzle-orm'
import { messages, type MessageRecord } from '../../../db/schema'
import type { Reaction } from '../../../engine/whatsapp/port/messages'
import type { ServiceContext } from '../../context'
import { isSameChat } from '../records/lookup'
import { partyName, partyNames } from './party'
import { applyReactionChange } from './reaction-list'
import { findRecord } from '../records/records'

/** A reaction as the services apply it: the engine's fact, or this session's own through the API. */
export type ReactionFact = Omit<Reaction, 'id'>

/**
 * Someone set or removed a reaction: the reacted record's `content.reactions` follows (one per
 * person) with a `message.reaction` event, in one transaction. A reaction to a message the
 * session has no record of is still announced (`recorded: false`) and changes nothing; one that
 * changes nothing on a recorded message (relayed again, or older than that person's latest) is
 * not announced again. Answers the record when it changed.
 */
export function applyReaction(
  ctx: ServiceContext,
  sessionId: string,
  reaction: ReactionFact,
): MessageRecord | undefined {
  const reactor = { phone: reaction.reactorPhone, lid: reaction.reactorLid }
  const from = partyName(reactor)
  if (!from) {
    ctx.logger.debug({ sessionId, messageId: reaction.targetId }, 'a reaction from no one known: not recorded')
    return undefined
  }
  return ctx.db.transaction(
    (tx) => {
      const found = findRecord(ctx, sessionId, reaction.targetId)
      const target = found && isReactedRecord(found, reaction) ? found : undefined
      let updated: MessageRecord | undefined
      if (target) {
        const reactions = applyReactionChange(target.content.reactions ?? [], {
          from,
          names: partyNames(reactor),
          emoji: reaction.emoji,
          at: reaction.timestamp,
        })
        if (!reactions) return undefined
        const { reactions: _, ...rest } = target.content
        updated = tx
          .update(messages)
          .set({ content: reactions.length > 0 ? { ...rest, reactions } : rest, updatedAt: ctx.clock.now() })
          .where(and(eq(messages.sessionId, sessionId), eq(messages.id, target.id)))
          .returning()
          .get()
      }
      const chat = updated ?? chatColumnsOf(reaction)
      ctx.outbox.record(tx, {
        sessionId,
        type: 'message.reaction',
        data: {
          messageId: reaction.targetId,
          phone: chat.phone,
          lid: chat.lid === null ? null : `${chat.lid}@lid`,
          participant: updated?.participant ?? null,
          from,
          fromPhone: reaction.reactorPhone ?? null,
          fromLid: reaction.reactorLid ? `${reaction.reactorLid}@lid` : null,
          fromMe: reaction.fromMe,
          emoji: reaction.emoji,
          removed: reaction.emoji === '',
          reactedAt: reaction.timestamp.toISOString(),
          recorded: Boolean(updated),
        },
      })
      return updated
    },
    { behavior: 'immediate' },
  )
}

/** The record a reaction names: same chat, and written by whom the reaction says. */
const isReactedRecord = (record: MessageRecord, reaction: ReactionFact) =>
  isSameChat(record, reaction) && (record.direction === 'outbound') === reaction.targetFromMe

/** A chat as records name it, for a reaction to a message the session has no record of. */
const chatColumnsOf = (reaction: ReactionFact) =>
  reaction.chatJid.endsWith('@g.us')
    ? { phone: reaction.chatJid, lid: null }
    : { phone: reaction.phone ?? null, lid: reaction.lid ?? null }
