/** The workspace's sessions as last read, shared by the list, the session page and the events. */
import type { SessionView } from '../schemas/session'
import { api } from './api'
import { createStore } from './store'

export type Session = SessionView
export const sessions = createStore<Session[]>([])
/** The newest QR image per session (connect answers one; GET .../qr reads the current one). */
export const qrImages = createStore<Record<string, string>>({})
export const pairingCodes = createStore<Record<string, string>>({})

export async function refreshSessions() {
  const list = await api<{ sessions: Session[] }>('GET', '/v1/session/all')
  sessions.set(list.sessions)
}

export function patchSession(sessionId: string, change: Partial<Session>) {
  sessions.update((list) => list.map((s) => (s.sessionId === sessionId ? { ...s, ...change } : s)))
}
