import { asc, eq, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { prepared } from '../../db/prepared'
import { sessions } from '../../db/schema'
import type { ServiceContext } from '../context'
import { sessionView } from './view'

/** Only the columns the view shows: SQLite hands each value over as a new JS string. */
const viewColumns = {
  id: sessions.id,
  name: sessions.name,
  status: sessions.status,
  statusReason: sessions.statusReason,
  number: sessions.number,
  webhookUrl: sessions.webhookUrl,
  webhookMessages: sessions.webhookMessages,
  autoRejectCalls: sessions.autoRejectCalls,
  lastSeen: sessions.lastSeen,
}

const sessionsOfWorkspace = (db: GatewayDatabase) =>
  db.select(viewColumns).from(sessions).where(eq(sessions.workspaceId, sql.placeholder('workspaceId'))).orderBy(asc(sessions.createdAt)).prepare()

export function listSessions(ctx: ServiceContext, { workspaceId }: { workspaceId: string }) {
  const rows = prepared(ctx, sessionsOfWorkspace).all({ workspaceId })
  return { sessions: rows.map(sessionView) }
}
