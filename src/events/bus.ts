import { EventEmitter } from 'node:events'
import type { SessionStatus } from '../shared/session-statuses'

/**
 * Events the gateway raises in process, for in-process listeners (the edge session object, the
 * restore queue, tests). Webhooks do not come from here: every event is written to the outbox in
 * the transaction of the change it reports (webhooks/outbox.ts).
 */
export interface GatewayEvents {
  'session.status': {
    sessionId: string
    workspaceId: string
    status: SessionStatus
    previousStatus: SessionStatus
    statusReason: string | null
    at: Date
  }
  'session.qr': { sessionId: string; workspaceId: string; qr: string; at: Date }
  'call.received': {
    sessionId: string
    workspaceId: string
    callId: string
    from: string
    isVideo: boolean
    rejected: boolean
    at: Date
  }
}

export type GatewayEventName = keyof GatewayEvents

/** A typed emitter, one per gateway (never module-level). Listener errors never reach the emitter. */
export class EventBus {
  readonly #emitter = new EventEmitter()

  constructor(private readonly onListenerError: (error: unknown, event: GatewayEventName) => void) {
    this.#emitter.setMaxListeners(100)
  }

  emit<E extends GatewayEventName>(event: E, payload: GatewayEvents[E]): void {
    for (const listener of this.#emitter.listeners(event)) {
      try {
        ;(listener as (p: GatewayEvents[E]) => void)(payload)
      } catch (error) {
        this.onListenerError(error, event)
      }
    }
  }

  on<E extends GatewayEventName>(event: E, listener: (payload: GatewayEvents[E]) => void): () => void {
    this.#emitter.on(event, listener)
    return () => this.#emitter.off(event, listener)
  }
}
