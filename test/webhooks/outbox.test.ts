import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { resolveConfig } from '../../src/config'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { sessions, webhookDeliveries, webhookEvents } from '../../src/db/schema'
import { silentLogger } from '../../src/logger'
import { createStatementCache } from '../../src/perf/prepared'
import { createWorkspace } from '../../src/services/workspaces'
import { createOutbox, type Outbox } from '../../src/webhooks/outbox'
import { tempDir } from '../support/temp-dir'

/** The outbox writes on the transaction it is given: the event commits or rolls back with it. */
describe('the webhook outbox', () => {
  const dir = tempDir('outbox-')
  const clock = { now: () => new Date('2026-01-01T00:00:00Z') }
  const config = resolveConfig()
  let own: GatewayDatabase
  let other: GatewayDatabase
  let woken: (string | undefined)[]
  let outbox: Outbox

  const open = async (name: string) => {
    const db = await openDatabase(join(dir.path, name))
    migrate(db)
    const workspace = createWorkspace({ db, clock, logger: silentLogger(), config }, { name: 'w', plan: 'paid' })
    db.insert(sessions)
      .values({
        id: 'ses_1',
        workspaceId: workspace.id,
        name: 's',
        status: 'connected',
        webhookUrl: 'https://hooks.invalid/x',
        webhookMessages: true,
        webhookSecret: 'whsec_x',
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .run()
    return db
  }
  const eventsIn = (db: GatewayDatabase) => db.select({ id: webhookEvents.id }).from(webhookEvents).all()
  const qr = { sessionId: 'ses_1', type: 'session.qr', data: { qr: 'x' } } as const

  beforeEach(async () => {
    own = await open(`own-${Math.random()}.db`)
    other = await open(`other-${Math.random()}.db`)
    woken = []
    outbox = createOutbox({
      db: own,
      statements: createStatementCache(own),
      clock,
      config,
      notifier: { wake: (sessionId) => woken.push(sessionId) },
    })
  })
  afterEach(() => {
    closeDatabase(own)
    closeDatabase(other)
  })

  it('writes the event and its first delivery in the transaction given, and wakes delivery', () => {
    const id = own.transaction((tx) => outbox.record(tx, qr), { behavior: 'immediate' })
    expect(eventsIn(own)).toEqual([{ id }])
    expect(own.select({ eventId: webhookDeliveries.eventId }).from(webhookDeliveries).all()).toEqual([{ eventId: id }])
    expect(woken).toEqual(['ses_1'])
  })

  it('leaves nothing when the transaction rolls back', () => {
    expect(() =>
      own.transaction((tx) => {
        outbox.record(tx, qr)
        throw new Error('the change failed')
      }),
    ).toThrow('the change failed')
    expect(eventsIn(own)).toEqual([])
    expect(own.select().from(webhookDeliveries).all()).toEqual([])
  })

  it('writes on the handle given, even one of another database', () => {
    const id = other.transaction((tx) => outbox.record(tx, qr))
    expect(eventsIn(other)).toEqual([{ id }])
    expect(eventsIn(own)).toEqual([])
  })
})
