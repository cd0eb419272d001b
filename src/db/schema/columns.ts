import { integer } from 'drizzle-orm/sqlite-core'

/** Milliseconds since the epoch, read back as a Date. */
export const timestamp = (name: string) => integer(name, { mode: 'timestamp_ms' })

/** created/updated columns shared by every table that has a life of its own. */
export const lifecycleDates = {
  createdAt: timestamp('created_at').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
}
