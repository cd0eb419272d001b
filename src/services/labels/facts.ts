import type { LabelChange } from '../../engine/whatsapp/port/labels'
import type { ServiceContext } from '../context'
import { sessionById } from '../sessions/view'
import { applyLabelChange } from './store'

/**
 * A label change reached the session (app-state sync: the phone's or the gateway's own): the rows
 * follow it and, when they changed, its event is written in the same transaction.
 */
export function onLabelChange(ctx: ServiceContext, sessionId: string, change: LabelChange): void {
  if (!sessionById(ctx.db, sessionId)) return
  ctx.db.transaction(
    (tx) => {
      const event = applyLabelChange(tx, sessionId, change, ctx.clock.now())
      if (event) ctx.outbox.record(tx, event)
    },
    { behavior: 'immediate' },
  )
}
