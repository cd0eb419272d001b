/** Keeps the session list in step with session.status events (a new session: the list is read again). */
import { useEffect } from 'hono/jsx/dom'
import { onEvent } from '../../live'
import { patchSession, refreshSessions, sessions } from '../../sessions'

export function useSessionEvents() {
  useEffect(
    () =>
      onEvent((event) => {
        if (event.type !== 'session.status') return
        const known = sessions.get().some((s) => s.sessionId === event.sessionId)
        if (!known) return void refreshSessions().catch(() => {})
        const data = event.data as { status: string; statusReason?: string | null; number?: string | null }
        patchSession(event.sessionId, {
          status: data.status as never,
          statusReason: data.statusReason ?? null,
          ...(data.number ? { number: data.number } : {}),
        })
      }),
    [],
  )
}
