import type { EngineFact } from '../engine/whatsapp/port'
import type { GatewayContext } from './context'
import { onGroupNotice, onGroupsSynced } from './groups/facts'
import { applyInboundChange, recordInbound } from './messages/inbound/inbound'
import { recordOwnMessage } from './messages/inbound/own'
import { applyPollVote } from './messages/inbound/poll-votes'
import { applyReaction } from './messages/inbound/reactions'
import { applyReceipt } from './messages/inbound/receipts'
import { onClosed, onOpened, onQr } from './sessions/facts'
import { keepQr } from './sessions/qr'
import { keepHistoryChunk } from './history/chunks'
import { onPresence } from './contacts/presence'
import { onChannelPost, onChannelUpdate } from './channels/facts'
import { onLabelChange } from './labels/facts'
import { sessionById } from './sessions/view'
import type { NewEvent } from '../webhooks/outbox'
import type { WebhookEventType } from '../schemas/webhook-events'

/** Calls change no row: their events are written in a transaction of their own. */
function recordInOwnTransaction<T extends WebhookEventType>(ctx: GatewayContext, event: NewEvent<T>): void {
  ctx.db.transaction((tx) => void ctx.outbox.record(tx, event), { behavior: 'immediate' })
}

const sessionOf = (ctx: GatewayContext, sessionId: string) => sessionById(ctx.db, sessionId)

/**
 * Where every fact the engine reports lands: session facts go through the state machine,
 * message facts into the records. A handler that throws is logged, never raised into Baileys.
 */
export function applyEngineFact(ctx: GatewayContext, fact: EngineFact): void {
  try {
    dispatch(ctx, fact)
  } catch (error) {
    ctx.logger.error({ err: error, sessionId: fact.sessionId, fact: fact.type }, 'could not apply an engine fact')
  }
}

function dispatch(ctx: GatewayContext, fact: EngineFact): void {
  switch (fact.type) {
    case 'opened':
      onOpened(ctx, fact)
      return
    case 'closed':
      onClosed(ctx, fact)
      return
    case 'receipt':
      applyReceipt(ctx, fact)
      return
    case 'message':
      recordInbound(ctx, fact.sessionId, fact.message)
      return
    case 'message-change':
      applyInboundChange(ctx, fact.sessionId, fact.change)
      return
    case 'own-message':
      recordOwnMessage(ctx, fact.sessionId, fact.message)
      return
    case 'reaction':
      applyReaction(ctx, fact.sessionId, fact.reaction)
      return
    case 'poll-vote':
      applyPollVote(ctx, fact.sessionId, fact.vote)
      return
    case 'groups-synced':
      onGroupsSynced(ctx, fact)
      return
    case 'group':
      onGroupNotice(ctx, fact)
      return
    case 'history-chunk':
      keepHistoryChunk(ctx, fact.sessionId, fact.chunk)
      return
    case 'qr': {
      const workspaceId = keepQr(ctx, fact.sessionId, fact.qr)
      if (workspaceId) onQr(ctx, fact, workspaceId)
      return
    }
    case 'presence':
      onPresence(ctx, fact.sessionId, fact.presence)
      return
    case 'channel-post':
      onChannelPost(ctx, fact.sessionId, fact.post)
      return
    case 'channel-updated':
      onChannelUpdate(ctx, fact.sessionId, fact.update)
      return
    case 'label':
      onLabelChange(ctx, fact.sessionId, fact.change)
      return
    case 'call': {
      const workspaceId = sessionOf(ctx, fact.sessionId)?.workspaceId
      if (!workspaceId) return
      const { type: _, socket: __, ...call } = fact
      recordInOwnTransaction(ctx, {
        sessionId: fact.sessionId,
        type: 'call.received',
        data: { callId: call.callId, from: call.from, isVideo: call.isVideo, rejected: call.rejected },
      })
      ctx.events.emit('call.received', { ...call, workspaceId, at: ctx.clock.now() })
      return
    }
  }
}
