import { foreignKey, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamp } from './columns'
import { messages } from './messages'

/**
 * Each voter's current vote on a poll the session sent, as decrypted: the poll record's tally
 * (`content.votes`) is computed from these rows. A vote with no options stays as a row (it
 * removed the voter's choice), so that a late or redelivered older vote cannot bring it back.
 */
export const pollVotes = sqliteTable(
  'poll_votes',
  {
    sessionId: text('session_id').notNull(),
    pollId: text('poll_id').notNull(),
    /** How the tally names the voter: the number (digits), else `<digits>@lid`. */
    voter: text('voter').notNull(),
    voterPhone: text('voter_phone'),
    /** Digits. */
    voterLid: text('voter_lid'),
    /** The vote message's id: the same vote relayed again changes nothing. */
    voteId: text('vote_id').notNull(),
    /** Option names in the poll's order; empty when the voter took their vote back. */
    options: text('options', { mode: 'json' }).$type<string[]>().notNull(),
    /** The voter's phone's time of the vote: an older vote never replaces a newer one. */
    votedAt: timestamp('voted_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.pollId, t.voter] }),
    foreignKey({ columns: [t.sessionId, t.pollId], foreignColumns: [messages.sessionId, messages.id] }).onDelete(
      'cascade',
    ),
  ],
)

export type PollVoteRow = typeof pollVotes.$inferSelect
