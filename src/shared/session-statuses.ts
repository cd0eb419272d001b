/** The session states (docs/architecture.md); `connected` is the only one that is online. */
export const sessionStatuses = ['pending', 'connecting', 'connected', 'expired', 'logged_out', 'disconnected'] as const
export type SessionStatus = (typeof sessionStatuses)[number]
