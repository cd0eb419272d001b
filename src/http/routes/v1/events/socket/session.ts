import type { WSContext, WSEvents } from 'hono/ws'
import { GatewayError } from '../../../../../errors'
import type { GatewayContext } from '../../../../../services/context'
import { assertScope, eventsAfter, startPosition, type EventScope } from '../../../../../services/events/read'
import type { EventStreams } from '../../../../event-streams'
import { credentialEnded, msUntilExpiry } from '../../../../request-credential'
import { resolveBearer, type BearerIdentity } from '../../../../middleware/bearer-auth'
import { CLOSE, closeCodeOf, closeReason, READY_FRAME, readAuthFrame } from './frames'
import { startPump, type EventSocket } from './pump'

/** How long a socket opened without a credential has to send its auth frame. */
export const AUTH_TIMEOUT_MS = 5_000
/** How often a socket waiting for its auth frame looks whether the gateway is stopping. */
const AUTH_TURN_MS = 250

/** What the handshake asked for, before anyone is known. */
export interface SocketRequest {
  sessionId: string | undefined
  /** The eventId to resume after (`?after=` or Last-Event-ID). */
  after: string | undefined
}

/** A socket let in: its scope, where it starts, and its stream slot (given back once). */
export interface Admission {
  identity: BearerIdentity
  scope: EventScope
  after: number
  release(): void
}

/**
 * The checks GET /v1/events makes, in its order: the session is the workspace's (404), the
 * resume point, a stream slot (429). Throws the same GatewayErrors.
 */
export function admit(
  ctx: GatewayContext,
  streams: EventStreams,
  identity: BearerIdentity,
  request: SocketRequest,
): Admission {
  const scope: EventScope = { workspaceId: identity.workspace.id, sessionId: request.sessionId }
  assertScope(ctx, scope)
  const after = startPosition(ctx, scope, request.after)
  const release = streams.open(scope.workspaceId)
  return { identity, scope, after, release }
}

const socketOf = (ws: WSContext): EventSocket => ({
  send: (text) => ws.send(text),
  close: (code, reason) => ws.close(code, closeReason(reason)),
  bufferedAmount: () => bufferedAmountOf(ws.raw),
})

/** `ws` (Node, @hono/node-ws) has bufferedAmount; Bun's ServerWebSocket getBufferedAmount(). */
function bufferedAmountOf(raw: unknown): number {
  const socket = raw as { bufferedAmount?: number; getBufferedAmount?: () => number } | undefined
  if (typeof socket?.getBufferedAmount === 'function') return socket.getBufferedAmount()
  return socket?.bufferedAmount ?? 0
}

/**
 * A socket's life: admitted already (credential in the handshake), or waiting AUTH_TIMEOUT_MS
 * for `{"type":"auth","token":"…"}`, then admitted as above, the refusals as close codes
 * (4000 + the HTTP status). Then `ready`, then events until the pump ends it. Client frames
 * after the auth frame are ignored; a binary one before it closes with 1003.
 */
export function socketEvents(
  ctx: GatewayContext,
  streams: EventStreams,
  request: SocketRequest,
  admitted: Admission | undefined,
  /** Ends this socket's count among those waiting for an auth frame (EventStreams.awaitAuth). */
  authAwaited: () => void = () => {},
): WSEvents {
  let admission = admitted
  let pump: { stop(): void } | undefined
  let authTimer: ReturnType<typeof setTimeout> | undefined
  let authenticating = false
  let closed = false
  const ending = streams.ending

  const begin = (ws: WSContext, entry: Admission) => {
    admission = entry
    ws.send(READY_FRAME)
    const credential = entry.identity.authenticatedBy
    pump = startPump({
      read: (after, limit) => eventsAfter(ctx, entry.scope, after, limit),
      after: entry.after,
      credentialEnded: () => credentialEnded(ctx.credentials, credential),
      msUntilExpiry: () => msUntilExpiry(credential),
      socket: socketOf(ws),
      logger: ctx.logger,
      ending,
    })
  }
  const refuse = (ws: WSContext, code: number, reason: string) => {
    clearTimeout(authTimer)
    ws.close(code, closeReason(reason))
  }

  const authenticate = async (ws: WSContext, token: string) => {
    authenticating = true
    clearTimeout(authTimer)
    authAwaited()
    try {
      const identity = await resolveBearer(ctx, token)
      if (closed) return
      if (ending.aborted) return refuse(ws, CLOSE.goingAway, 'gateway stopping')
      begin(ws, admit(ctx, streams, identity, request))
    } catch (error) {
      if (error instanceof GatewayError) return refuse(ws, closeCodeOf(error.code), error.message)
      ctx.logger.error({ err: error }, 'event socket authentication failed')
      refuse(ws, CLOSE.internalError, 'internal error')
    }
  }

  return {
    onOpen(_event, ws) {
      if (ending.aborted) return refuse(ws, CLOSE.goingAway, 'gateway stopping')
      if (admission) return begin(ws, admission)
      // Checked as the pump checks `ending` (a turn, not a listener per socket): a stop closes a
      // waiting socket within a turn rather than at its deadline.
      const deadline = Date.now() + AUTH_TIMEOUT_MS
      const wait = () => {
        if (ending.aborted) return refuse(ws, CLOSE.goingAway, 'gateway stopping')
        if (Date.now() >= deadline) return refuse(ws, CLOSE.unauthorized, 'no auth frame within 5 s')
        authTimer = setTimeout(wait, Math.min(AUTH_TURN_MS, deadline - Date.now()))
      }
      wait()
    },
    onMessage(event, ws) {
      if (admission || authenticating) return
      if (typeof event.data !== 'string') return refuse(ws, CLOSE.unsupportedData, 'expected a JSON text frame')
      const token = readAuthFrame(event.data)
      if (!token) return refuse(ws, CLOSE.unauthorized, 'first frame must be {"type":"auth","token":"<API key>"}')
      void authenticate(ws, token)
    },
    onClose() {
      closed = true
      clearTimeout(authTimer)
      authAwaited()
      pump?.stop()
      admission?.release()
    },
  }
}
