import { and, asc, eq, gt, sql } from 'drizzle-orm'
import { sessions, webhookEvents } from '../../db/schema'
import type { ServiceContext } from '../context'
import { findSession } from '../sessions/view'
import { commitWrites } from '../../perf/group-commit'

/** A place in the outbox: events after it are new to the reader. SQLite's rowid grows with every insert. */
export type OutboxPosition = number

export interface StoredEvent {
  position: OutboxPosition
  id: string
  type: string
  /** The exact JSON a webhook delivery carries. */
  body: string
}

export interface EventScope {
  workspaceId: string
  /** Only this session's events; every session of the workspace when absent. */
  sessionId?: string
}

const position = sql<number>`${webhookEvents}.rowid`

/** Throws 404 for a session of another workspace, as every route does. */
export function assertScope(ctx: ServiceContext, scope: EventScope): void {
  if (scope.sessionId) findSession(ctx, scope.workspaceId, scope.sessionId)
}

/**
 * Where a reader starts: after the event it last saw (`Last-Event-ID`), or after the newest
 * event now when it saw none. An id the outbox no longer holds (pruned after
 * WEBHOOK_RETENTION_HOURS) or never held for this workspace starts at the oldest event kept,
 * so everything that can still be given is given.
 */
export function startPosition(ctx: ServiceContext, scope: EventScope, lastEventId: string | undefined): OutboxPosition {
  if (lastEventId === undefined) {
    return (
      ctx.db
        .select({ last: sql<number | null>`max(${position})` })
        .from(webhookEvents)
        .get()?.last ?? 0
    )
  }
  const seen = ctx.db
    .select({ position })
    .from(webhookEvents)
    .innerJoin(sessions, eq(sessions.id, webhookEvents.sessionId))
    .where(and(eq(webhookEvents.id, lastEventId), eq(sessions.workspaceId, scope.workspaceId)))
    .get()
  return seen?.position ?? 0
}

/** The scope's events after `after`, oldest first, at most `limit`. */
export function eventsAfter(
  ctx: ServiceContext,
  scope: EventScope,
  after: OutboxPosition,
  limit: number,
): StoredEvent[] {
  // A stream sends only what is committed (perf/group-commit.ts).
  commitWrites(ctx.db)
  return ctx.db
    .select({ position, id: webhookEvents.id, type: webhookEvents.type, body: webhookEvents.body })
    .from(webhookEvents)
    .innerJoin(sessions, eq(sessions.id, webhookEvents.sessionId))
    .where(
      and(
        gt(position, after),
        eq(sessions.workspaceId, scope.workspaceId),
        scope.sessionId ? eq(webhookEvents.sessionId, scope.sessionId) : undefined,
      ),
    )
    .orderBy(asc(position))
    .limit(limit)
    .all()
}
