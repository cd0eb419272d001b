import { randomBytes } from 'node:crypto'
import { newSessionId } from '../../src/ids'
import { sessions } from '../../src/db/schema'
import type { GatewayDatabase } from '../../src/db/database'
import type { TestGateway } from './gateway'

/** A finished session's row in `workspaceId`, as a previous pairing left it; answers its id. */
export function insertSessionRow(
  db: GatewayDatabase,
  workspaceId: string,
  name: string,
  status: 'disconnected' | 'expired' = 'disconnected',
): string {
  const id = newSessionId()
  const now = new Date()
  db.insert(sessions)
    .values({
      id,
      workspaceId,
      name,
      status,
      webhookUrl: 'https://hooks.invalid/start',
      webhookMessages: true,
      webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
      createdAt: now,
      updatedAt: now,
    })
    .run()
  return id
}

/** A session row in the test workspace, for API tests that need no WhatsApp connection. */
export function createSessionRow(
  t: TestGateway,
  name: string,
  status: 'disconnected' | 'expired' = 'disconnected',
): string {
  const { db } = t.gateway.context
  const workspace = db.query.workspaces.findFirst({ where: (w, { eq }) => eq(w.name, 'test') }).sync()
  return insertSessionRow(db, workspace!.id, name, status)
}
