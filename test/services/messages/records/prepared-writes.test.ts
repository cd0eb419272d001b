import { setImmediate } from 'node:timers/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../../../src/db/database'
import { sessions } from '../../../../src/db/schema'
import { assembleGateway } from '../../../../src/gateway'
import type { GatewayContext } from '../../../../src/services/context'
import { silentLogger } from '../../../../src/logger'
import { pushNameOf, rememberPushName } from '../../../../src/services/contacts/names'
import { findRecord, insertRecord } from '../../../../src/services/messages/records/records'
import { recordInbound } from '../../../../src/services/messages/inbound/inbound'
import { createWorkspace } from '../../../../src/services/workspaces'
import { tempDir } from '../../../support/temp-dir'
import { groupOpen } from '../../../../src/perf/group-commit'

/**
 * The writes every received message makes run prepared (figure: the inbound bench's msg/s,
 * test/bench/inbound.ts): built once per gateway, then only run; the values still go in and
 * come back as Drizzle's own insert wrote them.
 */
describe('prepared writes of a received message', () => {
  const dir = tempDir('prepared-writes-')
  let database: GatewayDatabase
  let ctx: GatewayContext
  /** Every transaction begun on the connection, in order: true when one was already open (a savepoint). */
  const begun: boolean[] = []
  beforeAll(async () => {
    database = await openDatabase(join(dir.path, 'writes.db'))
    recordTransactions(database, begun)
    ;({ context: ctx } = assembleGateway({ database, logger: silentLogger() }))
    const workspace = createWorkspace(ctx, { name: 'writes' })
    const now = new Date()
    ctx.db
      .insert(sessions)
      .values({
        id: 'ses_w',
        workspaceId: workspace.id,
        name: 'w',
        status: 'disconnected',
        webhookUrl: 'https://hooks.invalid/w',
        webhookMessages: true,
        webhookSecret: 'whsec_w',
        createdAt: now,
        updatedAt: now,
      })
      .run()
  })
  afterAll(() => {
    closeDatabase(database)
    dir.cleanup()
  })

  const received = (id: string, at: Date) => ({
    sessionId: 'ses_w',
    id,
    chatJid: '15550001111@s.whatsapp.net',
    phone: '15550001111',
    lid: null,
    direction: 'inbound' as const,
    type: 'text',
    status: 'received' as const,
    content: { text: `hello ${id}` },
    payload: Buffer.from([1, 2, 3]),
    createdAt: at,
    updatedAt: at,
  })

  it('builds each statement once, and reads back what was written (dates, bytes, JSON, nulls)', () => {
    const at = new Date(1_795_000_000_123)
    expect(insertRecord(ctx, received('3A1', at)).inserted).toBe(true)
    rememberPushName(ctx, 'ses_w', { phone: '15550001111' }, 'Ada', at)
    const cached = ctx.statements.statements.size
    expect(insertRecord(ctx, received('3A2', at)).inserted).toBe(true)
    expect(insertRecord(ctx, received('3A2', at)).inserted).toBe(false) // redelivered: one record
    rememberPushName(ctx, 'ses_w', { phone: '15550001111' }, 'Ada L.', new Date(at.getTime() + 1))
    rememberPushName(ctx, 'ses_w', { phone: '15550001111' }, 'older', new Date(at.getTime() - 1))
    expect(ctx.statements.statements.size).toBe(cached)
    const cachedSql = [...ctx.statements.statements.values()].map((s) => (s as { query?: { sql: string } }).query?.sql)
    expect(cachedSql.filter((text) => text?.startsWith('insert into "messages"'))).toHaveLength(1)
    expect(cachedSql.filter((text) => text?.startsWith('insert into "contact_names"'))).toHaveLength(1)

    const record = findRecord(ctx, 'ses_w', '3A2')!
    expect(record.createdAt).toEqual(at)
    expect(record.content).toEqual({ text: 'hello 3A2' })
    expect(Buffer.from(record.payload!)).toEqual(Buffer.from([1, 2, 3]))
    expect(record).toMatchObject({ lid: null, participant: null, quoteId: null, editedAt: null, source: null })
    expect(pushNameOf(ctx, 'ses_w', { phone: '15550001111' })).toBe('Ada L.')
  })

  it('writes a received message, its event and the push name as one write of the group commit, nothing nested in it', async () => {
    // The group is one transaction, and each message's writes a savepoint of it (perf/group-commit.ts);
    // a transaction nested in that was a savepoint more, journalling every page again.
    begun.length = 0
    recordInbound(ctx, 'ses_w', {
      id: '3B1',
      chatJid: '15550002222@s.whatsapp.net',
      phone: '15550002222',
      type: 'text',
      content: { text: 'one commit' },
      timestamp: new Date(1_795_000_100_000),
      pushName: 'Grace',
      payload: new Uint8Array([4, 5]),
    })
    expect(begun).toEqual([true])
    expect(groupOpen(database)).toBe(true)
    await setImmediate()
    expect(groupOpen(database)).toBe(false)
    expect(findRecord(ctx, 'ses_w', '3B1')?.content).toEqual({ text: 'one commit' })
    expect(pushNameOf(ctx, 'ses_w', { phone: '15550002222' })).toBe('Grace')
    const events = database.$client
      .prepare("SELECT body FROM webhook_events WHERE type = 'message.received'")
      .all()
      .map((row) => (JSON.parse((row as { body: string }).body) as { data: { messageId: string } }).data.messageId)
    expect(events).toContain('3B1')
  })
})

type Run = (...args: unknown[]) => unknown
type DriverTransaction = Run & { default?: Run; deferred: Run; immediate: Run; exclusive: Run }

/** Wraps the driver's transaction functions (Drizzle's and the gateway's both use them) to note each begun. */
function recordTransactions(database: GatewayDatabase, begun: boolean[]): void {
  const client = database.$client as unknown as {
    inTransaction: boolean
    transaction: (fn: (...args: unknown[]) => unknown) => DriverTransaction
  }
  const transaction = client.transaction.bind(client)
  client.transaction = (fn) => {
    const wrapped = transaction(fn)
    const noting =
      (behavior: 'default' | 'deferred' | 'immediate' | 'exclusive') =>
      (...args: unknown[]) => {
        begun.push(client.inTransaction)
        return wrapped[behavior as 'deferred']!(...args)
      }
    return Object.assign(noting('default'), {
      deferred: noting('deferred'),
      immediate: noting('immediate'),
      exclusive: noting('exclusive'),
    })
  }
}
