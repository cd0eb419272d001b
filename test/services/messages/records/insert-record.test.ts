import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, type GatewayDatabase, openDatabase } from '../../../../src/db/database'
import { assembleGateway, type Gateway } from '../../../../src/gateway'
import { silentLogger } from '../../../../src/logger'
import { commitWrites } from '../../../../src/perf/group-commit'
import type { GatewayContext } from '../../../../src/services/context'
import { findRecord, insertRecord, type NewMessageRecord } from '../../../../src/services/messages/records/records'
import { createWorkspace } from '../../../../src/services/workspaces'
import { insertSessionRow } from '../../../support/session-row'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'

/**
 * insertRecord runs one prepared statement that names every column (bench: text sends msg/s):
 * what it stores must be what Drizzle's own insert stored, an absent column NULL, and the
 * conflict rule (a live message takes over its history import, nothing else) must hold.
 */
describe('insertRecord (prepared)', () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let database: GatewayDatabase
  let gateway: Gateway
  let context: GatewayContext
  let sessionId: string
  beforeAll(async () => {
    database = await openDatabase(databasePath)
    ;({ gateway, context } = assembleGateway({ database, logger: silentLogger() }))
    await gateway.start()
    sessionId = insertSessionRow(context.db, createWorkspace(context, { name: 'test', plan: 'free' }).id, 'records')
  })
  afterAll(async () => {
    await gateway.stop()
    closeDatabase(database)
    dir.cleanup()
  })

  const at = new Date('2026-01-02T03:04:05.678Z')
  const base = (id: string): NewMessageRecord => ({
    sessionId,
    id,
    chatJid: '15551230001@s.whatsapp.net',
    direction: 'inbound',
    type: 'text',
    status: 'received',
    content: { text: 'hello' },
    createdAt: at,
    updatedAt: at,
  })
  // What insertRecord writes is in the file once the connection's group commits (perf/group-commit.ts).
  const row = (id: string) => {
    commitWrites(context.db)
    return queryFile(databasePath, 'SELECT * FROM messages WHERE id = ?', id)[0]
  }
  const eventsOf = (id: string) => {
    commitWrites(context.db)
    return queryFile(databasePath, "SELECT type FROM webhook_events WHERE body LIKE '%' || ? || '%'", id).length
  }

  it('stores every column as the driver does, and NULL for each one left out', () => {
    const full: NewMessageRecord = {
      ...base('FULL'),
      phone: '15551230001',
      lid: '123456789012345',
      participant: '15551230002',
      direction: 'outbound',
      source: 'phone',
      status: 'sent',
      statusReason: 'why',
      quoteId: 'QUOTED',
      content: { text: 'with "quotes" and ünïcode' },
      payload: Buffer.from([1, 2, 3]),
      editedAt: new Date(at.getTime() + 1000),
    }
    expect(insertRecord(context, full, { announce: false })).toEqual({ inserted: true, eventId: null })
    const stored = row('FULL')
    // bun:sqlite reads a BLOB as a Uint8Array, better-sqlite3 as a Buffer: compare the bytes.
    expect(Buffer.from(stored?.payload as Uint8Array)).toEqual(Buffer.from([1, 2, 3]))
    expect(stored).toMatchObject({
      phone: '15551230001',
      lid: '123456789012345',
      participant: '15551230002',
      direction: 'outbound',
      source: 'phone',
      status: 'sent',
      status_reason: 'why',
      quote_id: 'QUOTED',
      content: '{"text":"with \\"quotes\\" and ünïcode"}',
      edited_at: at.getTime() + 1000,
      created_at: at.getTime(),
      updated_at: at.getTime(),
    })
    expect(findRecord(context, sessionId, 'FULL')).toEqual(full)

    insertRecord(context, base('BARE'), { announce: false })
    expect(row('BARE')).toMatchObject({
      phone: null,
      lid: null,
      participant: null,
      source: null,
      status_reason: null,
      quote_id: null,
      payload: null,
      edited_at: null,
    })
  })

  it('answers a redelivered message as not inserted, changing nothing; a live one takes over its history import', () => {
    const first = insertRecord(context, base('AGAIN'))
    expect(first.inserted).toBe(true)
    expect(first.eventId).toEqual(expect.any(String))
    const later = new Date(at.getTime() + 60_000)
    expect(insertRecord(context, { ...base('AGAIN'), content: { text: 'changed' }, updatedAt: later })).toEqual({
      inserted: false,
      eventId: null,
    })
    expect(row('AGAIN')).toMatchObject({ content: '{"text":"hello"}', updated_at: at.getTime() })
    expect(eventsOf('AGAIN')).toBe(1)

    insertRecord(context, { ...base('IMPORTED'), source: 'history' }, { announce: false })
    const live = insertRecord(context, { ...base('IMPORTED'), updatedAt: later })
    expect(live.inserted).toBe(true)
    expect(row('IMPORTED')).toMatchObject({ source: null, updated_at: later.getTime() })
    expect(eventsOf('IMPORTED')).toBe(1)
  })
})
