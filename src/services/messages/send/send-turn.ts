import type { Session } from '../../../db/schema'
import type { OutboundContent } from '../../../engine/whatsapp/port/messages'
import type { ChatJid, SessionHandle } from '../../../engine/whatsapp/port'
import { GatewayError } from '../../../errors'
import type { GatewayContext } from '../../context'
import { engineFailure } from '../../engine-failure'
import { connectedHandle } from '../../sessions/connected'
import { sessionById } from '../../sessions/view'
import { drawGapMs, isPaced, presenceBefore, sessionPacing } from './pacing'
import type { SendTurn } from './send-queue'

export interface Turn {
  /** The session's live handle as of this send's turn. */
  handle: SessionHandle
  /** Its place in the queue, to end once the hand-over settles; none for an unpaced send. */
  turn?: SendTurn
}

/**
 * Waits this send's turn when the session's sends are paced (or others are still queued, so
 * order holds), showing "typing…"/"recording…" for the time the message takes and then
 * `paused`. An unpaced send of an idle session goes straight on: one map lookup. Nothing is
 * recorded before the turn comes: a send refused (429) or cut off here (409) leaves nothing.
 */
export async function takeTurn(
  ctx: GatewayContext,
  session: Session,
  handle: SessionHandle,
  chatJid: ChatJid,
  content: OutboundContent,
): Promise<Turn> {
  const pacing = sessionPacing(ctx, session)
  if (!isPaced(pacing) && !ctx.sendQueues.busy(session.id)) return { handle }
  const presence = pacing.typing ? presenceBefore(content) : undefined
  const turn = ctx.sendQueues.enter(session.id, { gapMs: drawGapMs(pacing), presenceMs: presence?.ms ?? 0 })
  try {
    await turn.ready
    // The session may have reconnected (a new socket) or gone while this send waited.
    const current = connectedHandle(ctx, sessionById(ctx.db, session.id) ?? session)
    if (presence) await showPresence(current, chatJid, presence.state, presence.ms, turn)
    return { handle: current, turn }
  } catch (error) {
    turn.done(false)
    throw error
  }
}

async function showPresence(
  handle: SessionHandle,
  chatJid: ChatJid,
  state: 'composing' | 'recording',
  ms: number,
  turn: SendTurn,
): Promise<void> {
  try {
    await handle.sendPresence({ state, chatJid })
    await turn.pause(ms)
    await handle.sendPresence({ state: 'paused', chatJid })
  } catch (error) {
    if (error instanceof GatewayError) throw error
    if (!handle.online) throw offlineWhileTyping()
    throw engineFailure(error, {
      timeout: 'WhatsApp did not take the typing indicator in time; nothing was sent or recorded',
      upstream: 'WhatsApp refused the typing indicator; nothing was sent or recorded',
      not_connected: 'The session went offline before the message was handed over; nothing was sent or recorded',
    })
  }
}

const offlineWhileTyping = () =>
  new GatewayError(
    'session_not_connected',
    'The session went offline before the message was handed over; nothing was sent or recorded',
  )

/** Why waiting sends of a session fail when it leaves `connected` (the client's disconnect, a drop). */
export const leftConnected = (status: string) =>
  new GatewayError(
    'session_not_connected',
    `The session became ${status} while the message waited its turn (send pacing); nothing was sent or recorded`,
    { status },
  )

/** Why waiting sends fail when the gateway stops. */
export const gatewayStopping = () =>
  new GatewayError(
    'session_not_connected',
    'The gateway is stopping; the message waiting its turn (send pacing) was not sent or recorded',
  )
