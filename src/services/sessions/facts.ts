import { resubscribePresence } from '../contacts/presence'
import { CloseCode, type EngineFact } from '../../engine/whatsapp/port'
import type { GatewayContext } from '../context'
import { sessionById } from './view'
import { closeReason, decideAfterClose } from './close-policy'
import { transition } from './transitions'
import { awaitsUnlink, unlinkNow } from './unlink'

type Fact<T extends EngineFact['type']> = Extract<EngineFact, { type: T }>

/** The socket logged in: the session is connected, unless the client closed it meanwhile. */
export function onOpened(ctx: GatewayContext, fact: Fact<'opened'>): void {
  const result = transition(ctx, fact.sessionId, {
    status: 'connected',
    reason: null,
    number: fact.number,
    lid: fact.lid,
  })
  if (result.applied) {
    ctx.logger.info({ sessionId: fact.sessionId, number: fact.number }, 'session connected')
    return void resubscribePresence(ctx, fact.sessionId)
  }
  const handle = ctx.engine.session(fact.sessionId)
  // Disconnected while offline: this login exists only to remove the device.
  if (handle && awaitsUnlink(result.session) && ctx.engine.hasCredentials(fact.sessionId))
    return void unlinkNow(ctx, fact.sessionId, handle)
  // A late login (e.g. a QR scanned after DELETE): the client's decision wins; close it.
  ctx.logger.info(
    { sessionId: fact.sessionId, status: result.session?.status },
    'login after the session ended; closing it',
  )
  void handle?.end()
}

/** A close the gateway did not ask for: the policy decides between reconnecting and stopping. */
export function onClosed(ctx: GatewayContext, fact: Fact<'closed'>): void {
  const handle = ctx.engine.session(fact.sessionId)
  const decision = decideAfterClose(fact)
  const closed = () =>
    ctx.logger.info(
      { sessionId: fact.sessionId, code: fact.code, message: fact.message, decision },
      'connection closed',
    )
  if (decision.action === 'stop') {
    closed()
    void handle?.end()
    if (decision.wipeCredentials) ctx.engine.wipeCredentials(fact.sessionId)
    transition(ctx, fact.sessionId, { status: decision.status, reason: decision.reason })
    return
  }
  const session = sessionById(ctx.db, fact.sessionId)
  // The restart WhatsApp asks for right after pairing (515): still pairing until the login.
  // Every pairing ends so, and Baileys' words for it ("Stream Errored") read like a fault: plain
  // words here. A session waiting to be unlinked keeps trying, quietly `disconnected`.
  if (session?.status === 'pending' && fact.code === CloseCode.restartRequired)
    ctx.logger.info(
      { sessionId: fact.sessionId, code: fact.code },
      'linked to the phone; reconnecting, as WhatsApp asks after every pairing',
    )
  else closed()
  if (session?.status === 'pending' || awaitsUnlink(session))
    return void handle?.reconnect({ immediately: decision.immediately })
  const result = transition(ctx, fact.sessionId, { status: 'connecting', reason: closeReason(fact.code, fact.cause) })
  if (!result.applied) return void handle?.end()
  handle?.reconnect({ immediately: decision.immediately })
}

export function onQr(ctx: GatewayContext, fact: Fact<'qr'>, workspaceId: string): void {
  ctx.events.emit('session.qr', { sessionId: fact.sessionId, workspaceId, qr: fact.qr, at: ctx.clock.now() })
}
