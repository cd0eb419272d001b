import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../../src/db/database'
import { sessions } from '../../../src/db/schema'
import { assembleGateway } from '../../../src/gateway'
import { newSessionId } from '../../../src/ids'
import { silentLogger } from '../../../src/logger'
import { groupWrite } from '../../../src/perf/group-commit'
import type { GatewayContext } from '../../../src/services/context'
import { eventsAfter } from '../../../src/services/events/read'
import { createWorkspace } from '../../../src/services/workspaces'
import { queryFile } from '../../support/sqlite-file'
import { tempDir } from '../../support/temp-dir'

/**
 * An event stream (GET /v1/events, the event socket) sends what eventsAfter reads: only what is
 * committed, even while a received message's event waits in the turn's group commit.
 */
describe('events read for a stream', () => {
  const dir = tempDir('events-read-')
  const path = join(dir.path, 'events.db')
  let database: GatewayDatabase
  let ctx: GatewayContext
  beforeAll(async () => {
    database = await openDatabase(path)
    ;({ context: ctx } = assembleGateway({ database, logger: silentLogger() }))
  })
  afterAll(() => {
    closeDatabase(database)
    dir.cleanup()
  })

  it('commits an event waiting in an open group before reading it', () => {
    const workspaceId = createWorkspace(ctx, { name: 'events' }).id
    const sessionId = newSessionId()
    const now = new Date()
    ctx.db
      .insert(sessions)
      .values({
        id: sessionId,
        workspaceId,
        name: 'events',
        status: 'connected',
        webhookUrl: 'https://hooks.invalid/events',
        webhookMessages: true,
        webhookSecret: 'whsec_events',
        createdAt: now,
        updatedAt: now,
      })
      .run()
    groupWrite(ctx.db, () => ctx.outbox.record(ctx.db, { sessionId, type: 'session.qr', data: { qr: 'x' } }))
    const read = eventsAfter(ctx, { workspaceId, sessionId }, 0, 10)
    expect(read.map((event) => event.type)).toEqual(['session.qr'])
    const inFile = queryFile<{ type: string }>(path, 'SELECT type FROM webhook_events WHERE session_id = ?', sessionId)
    expect(inFile.map((row) => row.type)).toEqual(['session.qr'])
  })
})
