import { isStatusRecord } from '../../status/audience'
import { and, eq, getTableColumns, isNull, type SQL, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../../../db/database'
import { prepared } from '../../../perf/prepared'
import { groupWrite } from '../../../perf/group-commit'
import { messages, type MessageRecord, type MessageStatus } from '../../../db/schema'
import type { MessageContent } from '../../../shared/message-content'
import { messageEventBase } from './view'
import type { DbOrTx } from '../../../webhooks/outbox'
import type { ServiceContext } from '../../context'
import { canAdvance } from './status-order'
import { mediaDownloadUrl } from '../../media/download-url'

export type NewMessageRecord = typeof messages.$inferInsert

const byKey = (sessionId: string, messageId: string) =>
  and(eq(messages.sessionId, sessionId), eq(messages.id, messageId))
const byKeyPlaceholders = and(
  eq(messages.sessionId, sql.placeholder('sessionId')),
  eq(messages.id, sql.placeholder('messageId')),
)

// The statements every send and receipt runs, prepared once per gateway (see perf/prepared.ts).
// They run on the same connection as the caller's transaction, so inside it.
const selectRecord = (db: GatewayDatabase) => db.select().from(messages).where(byKeyPlaceholders).prepare()
const selectStatus = (db: GatewayDatabase) =>
  db.select({ status: messages.status }).from(messages).where(byKeyPlaceholders).prepare()
// An update's values go in as SQL, so they are given as the driver stores them (ms, bytes).
const param = (name: string) => sql`${sql.placeholder(name)}`
const updateStatus = (db: GatewayDatabase) =>
  db
    .update(messages)
    .set({ status: param('status'), statusReason: param('statusReason'), updatedAt: param('updatedAt') })
    .where(byKeyPlaceholders)
    .returning()
    .prepare()
const updatePayload = (db: GatewayDatabase) =>
  db
    .update(messages)
    .set({ payload: param('payload') })
    .where(byKeyPlaceholders)
    .prepare()
const updateRecipient = (db: GatewayDatabase) =>
  db
    .update(messages)
    .set({ phone: param('phone'), lid: param('lid') })
    .where(byKeyPlaceholders)
    .prepare()
// The hand-over's recipient and payload in one statement, answering the record for its event.
const updateHandover = (db: GatewayDatabase) =>
  db
    .update(messages)
    .set({ phone: param('phone'), lid: param('lid'), payload: param('payload') })
    .where(byKeyPlaceholders)
    .returning()
    .prepare()

/**
 * insertRecord's statement, prepared (bench: text sends msg/s; building it per call was the
 * largest cost a send adds to Baileys'). Every column is a placeholder given as the driver
 * stores it (driverRow): a prepared insert cannot leave a column out, and Drizzle's encoders
 * take no null. An absent column is null, as Drizzle writes it.
 */
const messageColumns = Object.entries(getTableColumns(messages))
const insertMessage = (db: GatewayDatabase) =>
  db
    .insert(messages)
    .values(Object.fromEntries(messageColumns.map(([key]) => [key, param(key)])) as Record<keyof NewMessageRecord, SQL>)
    .onConflictDoUpdate({
      target: [messages.sessionId, messages.id],
      // A message the history import stored first arrives live: it becomes the live record
      // (its event written), so a message is never lost to an app for having been imported.
      set: { source: sql`excluded.source`, status: sql`excluded.status`, updatedAt: sql`excluded.updated_at` },
      setWhere: sql`${messages.source} = 'history' AND excluded.source IS NOT 'history'`,
    })
    .returning()
    .prepare()
const driverRow = (record: NewMessageRecord) =>
  Object.fromEntries(
    messageColumns.map(([key, column]) => {
      const value = record[key as keyof NewMessageRecord]
      return [key, value == null ? null : column.mapToDriverValue(value)]
    }),
  )

export function findRecord(ctx: ServiceContext, sessionId: string, messageId: string): MessageRecord | undefined {
  return prepared(ctx, selectRecord).get({ sessionId, messageId })
}

/**
 * Inserts a record once; a second insert of the same id (a redelivered message) changes
 * nothing, except over a record imported from history, which the live one takes over. Its
 * webhook event (`message.received`) is written with it, in one write of the connection's group
 * (perf/group-commit.ts: atomic, durable at the group's commit), its delivery held
 * until `holdEventUntil` when given (see Outbox.release); a send's record is written
 * `{ announce: false }` and announced by recordHandover once WhatsApp took it. Answers whether it
 * was inserted, and the event's id when one was written.
 */
export function insertRecord(
  ctx: ServiceContext,
  record: NewMessageRecord,
  options: RecordOptions = {},
): { inserted: boolean; eventId: string | null } {
  return groupWrite(ctx.db, () => writeRecord(ctx, ctx.db, record, options))
}

export interface RecordOptions {
  announce?: boolean
  holdEventUntil?: Date
}

/**
 * insertRecord on the caller's transaction `tx`, for a caller that writes more in the same
 * commit (a received message's push name). Not a nested transaction: that is a savepoint, and
 * under one SQLite journals every page the record, its event and deliveries change; past 16
 * pages it spilled that journal to a temporary file, opened and deleted for every message
 * received (bench: inbound msg/s).
 */
export function writeRecord(
  ctx: ServiceContext,
  tx: DbOrTx,
  record: NewMessageRecord,
  { announce = true, holdEventUntil }: RecordOptions = {},
): { inserted: boolean; eventId: string | null } {
  const inserted = prepared(ctx, insertMessage).get(driverRow(record))
  if (!inserted) return { inserted: false, eventId: null }
  const eventId = announce ? recordMessageEvent(tx, ctx, inserted, holdEventUntil) : null
  return { inserted: true, eventId }
}

/** A received file's new location after the phone uploaded it again (media retry). */
export function replacePayload(ctx: ServiceContext, sessionId: string, messageId: string, payload: Uint8Array): void {
  prepared(ctx, updatePayload).run({ sessionId, messageId, payload: Buffer.from(payload) })
}

/** Who a send went to, as the hand-over resolved it: the number and the LID, each where known. */
export interface ResolvedRecipient {
  phone: string | null
  lid: string | null
}

/** A send's record takes what the hand-over learned of its recipient (before it is announced). */
export function noteRecipient(
  ctx: ServiceContext,
  sessionId: string,
  messageId: string,
  { phone, lid }: ResolvedRecipient,
): void {
  prepared(ctx, updateRecipient).run({ sessionId, messageId, phone, lid })
}

/**
 * A send was handed to WhatsApp: its recipient as resolved and its proto (Baileys' retries,
 * quotes) are kept and its `message.status` pending event written, together (every send runs
 * it). A receipt that already moved the record on is reported by its own event; this one still
 * says the send began.
 */
export function recordHandover(
  ctx: ServiceContext,
  sessionId: string,
  messageId: string,
  { phone, lid }: ResolvedRecipient,
  payload: Uint8Array,
): void {
  groupWrite(ctx.db, () => {
    const record = prepared(ctx, updateHandover).get({
      sessionId,
      messageId,
      phone,
      lid,
      payload: Buffer.from(payload),
    })
    ctx.metrics.handedOver(sessionId, messageId)
    if (record)
      ctx.outbox.record(ctx.db, {
        sessionId,
        type: 'message.status',
        data: { ...messageEventBase(record), status: 'pending', statusReason: null },
      })
  })
}

/** A send's record that was never handed to WhatsApp (and never announced): gone, as if never made. */
export function dropUnsentRecord(ctx: ServiceContext, sessionId: string, messageId: string): void {
  ctx.db
    .delete(messages)
    .where(and(byKey(sessionId, messageId), isNull(messages.payload), eq(messages.status, 'pending')))
    .run()
}

/** The event a record's current state reports; answers its id (null when none was written). */
function recordMessageEvent(tx: DbOrTx, ctx: ServiceContext, record: MessageRecord, holdUntil?: Date): string | null {
  const base = messageEventBase(record)
  const sessionId = record.sessionId
  if (record.status === 'received') {
    const downloadUrl = record.content.media ? signedUrlOf(ctx, record) : undefined
    return ctx.outbox.record(tx, {
      sessionId,
      type: isStatusRecord(record) ? 'status.received' : 'message.received',
      data: { ...base, sentAt: record.createdAt.toISOString(), ...(downloadUrl ? { downloadUrl } : {}) },
      holdUntil,
    })
  }
  if (record.status === 'deleted')
    return ctx.outbox.record(tx, { sessionId, type: 'message.deleted', data: { ...base, reason: record.statusReason } })
  return ctx.outbox.record(tx, {
    sessionId,
    type: 'message.status',
    data: { ...base, status: record.status, statusReason: record.statusReason },
  })
}

/** A received file's downloadUrl; a failure to sign one costs the event its URL, never the message its record. */
function signedUrlOf(ctx: ServiceContext, record: MessageRecord): string | undefined {
  try {
    return mediaDownloadUrl(ctx, record)
  } catch (error) {
    ctx.logger.error({ err: error, sessionId: record.sessionId, messageId: record.id }, 'could not sign a downloadUrl')
    return undefined
  }
}

/** New content for a record (an edit, ours or the sender's) and its `message.edited` event, in one transaction. */
export function editRecord(
  ctx: ServiceContext,
  sessionId: string,
  messageId: string,
  content: MessageContent,
): MessageRecord | undefined {
  return ctx.db.transaction(
    (tx) => {
      const now = ctx.clock.now()
      const updated = tx
        .update(messages)
        .set({ content, editedAt: now, updatedAt: now })
        .where(byKey(sessionId, messageId))
        .returning()
        .get()
      if (updated) {
        ctx.outbox.record(tx, {
          sessionId,
          type: 'message.edited',
          data: { ...messageEventBase(updated), editedAt: now.toISOString() },
        })
      }
      return updated
    },
    { behavior: 'immediate' },
  )
}

export interface StatusUpdate {
  status: MessageStatus
  reason?: string | null
}

/**
 * Moves a record's status forward in one write of the connection's group (read, compare,
 * write, with nothing in between), so a late or duplicate receipt can never move it back; its
 * webhook event is written with it. Answers the record when it changed.
 */
export function advanceStatus(
  ctx: ServiceContext,
  sessionId: string,
  messageId: string,
  update: StatusUpdate,
): MessageRecord | undefined {
  return advanceStatuses(ctx, sessionId, [messageId], update)[0]
}

/** advanceStatus for many records of a session, all in one write: the ones that changed. */
export function advanceStatuses(
  ctx: ServiceContext,
  sessionId: string,
  messageIds: readonly string[],
  update: StatusUpdate,
): MessageRecord[] {
  return groupWrite(ctx.db, () =>
    messageIds.flatMap((messageId) => {
      const current = prepared(ctx, selectStatus).get({ sessionId, messageId })
      if (!current || !canAdvance(current.status, update.status)) return []
      const updated = prepared(ctx, updateStatus).get({
        sessionId,
        messageId,
        status: update.status,
        statusReason: update.reason ?? null,
        updatedAt: ctx.clock.now().getTime(),
      })!
      recordMessageEvent(ctx.db, ctx, updated)
      if (updated.direction === 'outbound')
        ctx.metrics.messageStatus(sessionId, messageId, current.status, updated.status, updated.statusReason)
      return [updated]
    }),
  )
}

/** The proto bytes of a message, for Baileys' retries and for quoting it. */
export function storedPayload(db: GatewayDatabase, sessionId: string, messageId: string): Uint8Array | undefined {
  const row = db.select({ payload: messages.payload }).from(messages).where(byKey(sessionId, messageId)).get()
  return row?.payload ? new Uint8Array(row.payload) : undefined
}
