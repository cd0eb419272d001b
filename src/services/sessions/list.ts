import { asc, eq } from 'drizzle-orm'
import { sessions } from '../../db/schema'
import type { ServiceContext } from '../context'
import { sessionView } from './view'

export function listSessions(ctx: ServiceContext, { workspaceId }: { workspaceId: string }) {
  const rows = ctx.db.select().from(sessions).where(eq(sessions.workspaceId, workspaceId)).orderBy(asc(sessions.createdAt)).all()
  return { sessions: rows.map(sessionView) }
}
