import type { SessionView } from '../../schemas/session'

/** Frozen at run time (a cached list is shared by requests); typed mutable for the response schema. */
export interface SessionList {
  sessions: SessionView[]
}

/**
 * Each workspace's session list as last read, with the `session_list_versions` number it was
 * read at. Shared by every request of one gateway, so its lists are frozen.
 */
export type SessionListCache = Map<string, { version: number; list: SessionList }>

export const createSessionListCache = (): SessionListCache => new Map()
