import { eq, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { prepared } from '../../perf/prepared'
import { sessions, workspaces, type MessageRecord } from '../../db/schema'
import type { ServiceContext } from '../context'
import { gatewaySecret } from './secret'
import { signMediaToken } from './signed-url'

/** The secret downloadUrl is signed with (gateway_secrets). */
export const MEDIA_URL_SECRET = 'media-url'

const workspaceOfSession = (db: GatewayDatabase) =>
  db
    .select({ name: workspaces.name })
    .from(sessions)
    .innerJoin(workspaces, eq(workspaces.id, sessions.workspaceId))
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare()

/**
 * The URL of the gateway that serves a received file without an API key: `GET
 * <PUBLIC_URL>/v1/media/<token>`, the token naming the message and signed with the gateway's
 * secret, good for MEDIA_URL_TTL seconds from now.
 */
export function mediaDownloadUrl(
  ctx: ServiceContext,
  record: Pick<MessageRecord, 'sessionId' | 'id'>,
): string | undefined {
  const workspace = prepared(ctx, workspaceOfSession).get({ sessionId: record.sessionId })
  if (!workspace) return undefined
  const expiresAt = Math.floor(ctx.clock.now().getTime() / 1000) + ctx.config.inboundMedia.urlTtlSeconds
  const token = signMediaToken(
    { workspace: workspace.name, sessionId: record.sessionId, messageId: record.id, expiresAt },
    gatewaySecret(ctx, MEDIA_URL_SECRET),
  )
  return `${ctx.config.publicUrl}/v1/media/${token}`
}
