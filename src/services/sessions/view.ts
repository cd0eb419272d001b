import { and, eq, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { prepared } from '../../perf/prepared'
import { sessions, type Session, webhookUrlOf } from '../../db/schema'
import { GatewayError, notFound } from '../../errors'
import type { SessionView } from '../../schemas/session'
import type { DbOrTx } from '../../webhooks/outbox'
import type { ServiceContext } from '../context'
import { proxyView } from './proxy'

/** A session as the API shows it. */
export function sessionView(
  session: Pick<
    Session,
    | 'id'
    | 'name'
    | 'status'
    | 'statusReason'
    | 'number'
    | 'webhookUrl'
    | 'webhookMessages'
    | 'webhookEvents'
    | 'autoRejectCalls'
    | 'lastSeen'
    | 'proxyUrl'
    | 'sendPacing'
    | 'history'
  >,
): SessionView {
  return {
    sessionId: session.id,
    sessionName: session.name,
    status: session.status,
    statusReason: session.statusReason,
    number: session.number,
    connected: session.status === 'connected',
    webhookUrl: webhookUrlOf(session.webhookUrl),
    webhookMessages: session.webhookMessages,
    webhookEvents: session.webhookEvents,
    autoRejectCalls: session.autoRejectCalls,
    lastSeen: session.lastSeen ? session.lastSeen.toISOString() : null,
    proxyUrl: proxyView(session.proxyUrl),
    sendPacing: session.sendPacing,
    history: session.history,
  }
}

/**
 * A session by id, whatever its workspace: for what the engine and the gateway itself do to a
 * session (facts, restores, unlinks). The API's reads go through findSession, which scopes.
 */
export function sessionById(db: Pick<DbOrTx, 'select'>, sessionId: string): Session | undefined {
  return db.select().from(sessions).where(eq(sessions.id, sessionId)).get()
}

// Prepared once per gateway: every request naming a session reads it (bench: text sends msg/s).
const sessionOfWorkspace = (db: GatewayDatabase) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sql.placeholder('sessionId')), eq(sessions.workspaceId, sql.placeholder('workspaceId'))))
    .prepare()

/** A session of the caller's workspace; any other id is 404, so existence never leaks. */
export function findSession(ctx: ServiceContext, workspaceId: string, sessionId: string): Session {
  const session = prepared(ctx, sessionOfWorkspace).get({ sessionId, workspaceId })
  if (!session) throw sessionNotFound(ctx.db, workspaceId, sessionId)
  return session
}

/**
 * The 404 for a session id the caller's workspace does not have. When the text is the *name* of
 * one of its sessions (the mistake of someone who connected with `sessionName` and uses it where
 * the id goes), the message says which id that session has; another workspace's names are never
 * looked at, so the answer tells a caller nothing it could not list itself.
 */
export function sessionNotFound(db: Pick<DbOrTx, 'select'>, workspaceId: string, sessionId: string): GatewayError {
  const named = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.name, sessionId)))
    .get()
  return named ? nameUsedAsId(sessionId, named.id) : notFound(`Session "${sessionId}"`)
}

/** The 404 for a session's name sent where its id goes (the edge Worker words it the same). */
export const nameUsedAsId = (name: string, id: string) =>
  new GatewayError(
    'not_found',
    `Session "${name}" not found: "${name}" is a session's name; its id is "${id}" (the sessionId connect answered), use that`,
    { sessionName: name, sessionId: id },
  )
