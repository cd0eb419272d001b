import { asc, eq, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { prepared } from '../../perf/prepared'
import { sessionListVersions, sessions } from '../../db/schema'
import type { SessionView } from '../../schemas/session'
import type { ServiceContext } from '../context'
import type { SessionList } from './list-cache'
import { sessionView } from './view'

/** Past this many workspaces the cache starts over (a bound, not an LRU). */
const MAX_CACHED_WORKSPACES = 10_000

/** Only the columns the view shows: SQLite hands each value over as a new JS string. */
const viewColumns = {
  id: sessions.id,
  name: sessions.name,
  status: sessions.status,
  statusReason: sessions.statusReason,
  number: sessions.number,
  webhookUrl: sessions.webhookUrl,
  webhookMessages: sessions.webhookMessages,
  webhookEvents: sessions.webhookEvents,
  autoRejectCalls: sessions.autoRejectCalls,
  lastSeen: sessions.lastSeen,
  proxyUrl: sessions.proxyUrl,
  sendPacing: sessions.sendPacing,
  history: sessions.history,
}

const sessionsOfWorkspace = (db: GatewayDatabase) =>
  db
    .select(viewColumns)
    .from(sessions)
    .where(eq(sessions.workspaceId, sql.placeholder('workspaceId')))
    .orderBy(asc(sessions.createdAt))
    .prepare()

const listVersion = (db: GatewayDatabase) =>
  db
    .select({ version: sessionListVersions.version })
    .from(sessionListVersions)
    .where(eq(sessionListVersions.workspaceId, sql.placeholder('workspaceId')))
    .prepare()

function readList(ctx: ServiceContext, workspaceId: string): SessionList {
  const rows = prepared(ctx, sessionsOfWorkspace).all({ workspaceId })
  return Object.freeze({ sessions: Object.freeze(rows.map((row) => Object.freeze(sessionView(row)))) as SessionView[] })
}

/**
 * The workspace's sessions, oldest first. A list is read from SQLite only when the
 * workspace's list version moved: one point read per request
 * instead of a query, a sort and a view per session.
 */
export function listSessions(ctx: ServiceContext, { workspaceId }: { workspaceId: string }): SessionList {
  const cache = ctx.sessionLists
  // The version is read before the rows: a change committed in between makes the stored
  // version older than the rows, so the next request reads them again (never the reverse).
  const version = ctx.reads.read(
    `sessions:${workspaceId}`,
    () => prepared(ctx, listVersion).get({ workspaceId })?.version ?? 0,
  )
  const cached = cache.get(workspaceId)
  if (cached?.version === version) return cached.list
  const list = readList(ctx, workspaceId)
  if (cache.size >= MAX_CACHED_WORKSPACES) cache.clear()
  cache.set(workspaceId, { version, list })
  return list
}
