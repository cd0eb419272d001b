import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { lifecycleDates, timestamp } from './columns'
import { workspaces } from './workspaces'
import type { WebhookEventType } from '../../shared/event-types'
import { type SessionStatus, sessionStatuses } from '../../shared/session-statuses'

/**
 * The live states: such a session holds its name (connect with it again is 409), counts against
 * the plan's session cap, reconnects after a restart and keeps its edge object awake.
 */
export const liveStatuses: readonly SessionStatus[] = ['pending', 'connecting', 'connected']
export const isLive = (status: SessionStatus) => liveStatuses.includes(status)

/**
 * `webhook_url` of a session without a webhook of its own (its events stay in the outbox, the
 * event stream and the panel). The column stays NOT NULL on purpose: relaxing it means
 * rebuilding `sessions`, and a rebuild inside the migrator's one transaction, where foreign keys
 * cannot be switched off, would cascade-delete every row that references a session. Read and
 * write it through the two helpers below, never compare with '' elsewhere.
 */
const NO_WEBHOOK_URL = ''
/** The column value for a webhook URL or none. */
export const storedWebhookUrl = (url: string | null): string => url ?? NO_WEBHOOK_URL
/** The webhook URL a stored column value stands for; null: the session has none. */
export const webhookUrlOf = (stored: string): string | null => (stored === NO_WEBHOOK_URL ? null : stored)

/** What a session imports of the phone's history when it links (docs/history.md); null: nothing. */
export interface HistorySetting {
  /** Days back from the linking that WhatsApp is asked for. */
  days: number
  /** The most messages stored; the rest is counted as skipped. */
  maxMessages: number
}

/** How a session's sends are spaced (docs/api.md "Send pacing"); all zero and false: not paced. */
export interface SendPacing {
  /** Least time between two hand-overs to WhatsApp. */
  minIntervalMs: number
  /** Up to this much more, drawn at random for each send. */
  jitterMs: number
  /** Show "typing…" (or "recording…" before a voice note) before each send. */
  typing: boolean
}

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status', { enum: sessionStatuses }).notNull(),
    statusReason: text('status_reason'),
    /** The linked account's phone number (digits) once paired. */
    number: text('number'),
    lid: text('lid'),
    /** The session's own webhook; NO_WEBHOOK_URL ('') when it has none (see above). */
    webhookUrl: text('webhook_url').notNull(),
    webhookMessages: integer('webhook_messages', { mode: 'boolean' }).notNull(),
    /** The event types written for the session (docs/webhooks.md "Choosing events"); null: every type. */
    webhookEvents: text('webhook_events', { mode: 'json' }).$type<WebhookEventType[]>(),
    webhookSecret: text('webhook_secret').notNull(),
    autoRejectCalls: integer('auto_reject_calls', { mode: 'boolean' }).notNull().default(false),
    pairingMode: text('pairing_mode', { enum: ['qr', 'pairing'] })
      .notNull()
      .default('qr'),
    pairingNumber: text('pairing_number'),
    /**
     * The QR WhatsApp offers now, while the session is `pending` (null otherwise), and when it
     * was offered: kept here rather than read from the outbox, whose `session.qr` events a
     * session may choose not to have. Replaced every 20 to 60 s while the pairing lasts.
     */
    qrCode: text('qr_code'),
    qrOfferedAt: timestamp('qr_offered_at'),
    /**
     * The session's own proxy (http://, https://, socks5://), credentials included as given: the
     * agents need the password to authenticate. Answered masked, never logged, never in an event.
     */
    proxyUrl: text('proxy_url'),
    /** The session's own send pacing; null: the operator's SEND_PACING_* defaults apply. */
    sendPacing: text('send_pacing', { mode: 'json' }).$type<SendPacing>(),
    /** History to import at the next linking; null: none (the default). */
    history: text('history', { mode: 'json' }).$type<HistorySetting>(),
    /** When the current link's history import ended (its history.synced event); null: not yet. */
    historySyncedAt: timestamp('history_synced_at'),
    lastSeen: timestamp('last_seen'),
    ...lifecycleDates,
  },
  (t) => [
    uniqueIndex('sessions_workspace_name_unique').on(t.workspaceId, t.name),
    index('sessions_status_idx').on(t.status),
  ],
)

export type Session = typeof sessions.$inferSelect
