import type { PlanName } from '../../../config'
import type { MessageRecord } from '../../../db/schema'
import type { ReactionTarget } from '../../../engine/whatsapp/port/messages'
import { GatewayError, notFound } from '../../../errors'
import type { ReactMessageInput } from '../../../schemas/reaction'
import type { GatewayContext } from '../../context'
import { engineFailure } from '../../engine-failure'
import { connectedHandle } from '../../sessions/connected'
import { findSession } from '../../sessions/view'
import { sendOnce } from '../send/idempotency'
import { findMessageInChat } from '../records/lookup'
import { applyReaction } from '../inbound/reactions'
import { findRecord } from '../records/records'
import { messageView } from '../records/view'

/** A person in a group as a reaction's key names them: a number's jid, or a LID as it is. */
const authorJid = (participant: string) =>
  participant.endsWith('@lid') ? participant : `${participant}@s.whatsapp.net`

/** The message a reaction goes on, from its record: ours, or someone's in a 1:1 chat or a group. */
function reactionTarget(record: MessageRecord): ReactionTarget {
  const fromMe = record.direction === 'outbound'
  return {
    id: record.id,
    chatJid: record.chatJid,
    fromMe,
    ...(!fromMe && record.participant ? { participant: authorJid(record.participant) } : {}),
  }
}

/**
 * Sets (or with '' removes) the session's reaction on a message of the chat, ours or theirs, and
 * answers the reacted record with its `content.reactions`: a reaction is not a message of its
 * own (nothing to quote, edit or list). With an Idempotency-Key, a retry answers the reacted
 * record again and sends nothing.
 */
export async function reactToMessage(
  ctx: GatewayContext,
  args: { workspaceId: string; plan: PlanName; input: ReactMessageInput; idempotencyKey?: string },
) {
  const { workspaceId, input } = args
  const session = findSession(ctx, workspaceId, input.sessionId)
  const messageId = await sendOnce(
    ctx,
    { workspaceId, sessionId: session.id, key: args.idempotencyKey, request: { kind: 'reaction', ...input } },
    async () => {
      const record = findMessageInChat(ctx, session, input.messageId, input.phone)
      if (record.status === 'deleted' || record.status === 'failed')
        throw new GatewayError('message_not_editable', `A ${record.status} message cannot be reacted to`, {
          messageId: record.id,
          status: record.status,
        })
      const handle = connectedHandle(ctx, session)
      const target = reactionTarget(record)
      try {
        await handle.send(record.chatJid, { kind: 'reaction', target, emoji: input.emoji })
      } catch (error) {
        if (!handle.online)
          throw new GatewayError('session_not_connected', 'The session went offline; the reaction was not sent')
        throw engineFailure(error, {
          timeout: 'WhatsApp did not take the reaction in time',
          upstream: 'WhatsApp refused the reaction',
          not_connected: 'The session went offline; the reaction was not sent',
        })
      }
      applyReaction(ctx, session.id, {
        chatJid: record.chatJid,
        phone: record.phone ?? undefined,
        lid: record.lid ?? undefined,
        fromMe: true,
        reactorPhone: session.number ?? undefined,
        reactorLid: session.lid ?? undefined,
        targetId: record.id,
        targetFromMe: target.fromMe,
        emoji: input.emoji,
        timestamp: ctx.clock.now(),
      })
      ctx.logger.info({ sessionId: session.id, messageId: record.id, removed: input.emoji === '' }, 'reaction sent')
      return record.id
    },
  )
  const record = findRecord(ctx, session.id, messageId)
  if (!record) throw notFound(`Message "${messageId}"`)
  return messageView(record)
}
