import { and, eq, or, type SQL } from 'drizzle-orm'
import { messages, pollVotes, type MessageRecord } from '../../../db/schema'
import type { PollVote } from '../../../engine/whatsapp/port/messages'
import type { GatewayContext } from '../../context'
import { partyName } from './party'
import { tallyVotes } from './poll-tally'
import { findRecord } from '../records/records'
import { isSameChat } from '../records/lookup'

/**
 * A decrypted vote on a poll: stored as the voter's current vote, the poll record's tally
 * (`content.votes`) recomputed, and a `message.poll_vote` event, in one transaction. A vote on
 * no poll this session sent in that chat, a vote relayed again, or one older than the voter's
 * latest changes nothing (logged at debug).
 */
export function applyPollVote(ctx: GatewayContext, sessionId: string, vote: PollVote): void {
  const voter = partyName({ phone: vote.voterPhone, lid: vote.voterLid })
  const skip = (reason: string) =>
    ctx.logger.debug({ sessionId, pollId: vote.pollId, voteId: vote.id, reason }, 'poll vote not recorded')
  if (!voter) {
    skip('the voter is unknown')
    return
  }
  ctx.db.transaction(
    (tx) => {
      const poll = findRecord(ctx, sessionId, vote.pollId)
      if (!poll || !isOwnPollIn(poll, vote)) return skip('no poll of this session in that chat')
      const sameVoter = or(
        ...[
          eq(pollVotes.voter, voter),
          vote.voterPhone ? eq(pollVotes.voterPhone, vote.voterPhone) : undefined,
          vote.voterLid ? eq(pollVotes.voterLid, vote.voterLid) : undefined,
        ].filter((condition): condition is SQL => condition !== undefined),
      )
      const ofPoll = and(eq(pollVotes.sessionId, sessionId), eq(pollVotes.pollId, vote.pollId))
      const previous = tx.select().from(pollVotes).where(and(ofPoll, sameVoter)).all()
      if (previous.some((row) => row.voteId === vote.id)) return skip('the same vote relayed again')
      if (previous.some((row) => row.votedAt.getTime() > vote.timestamp.getTime()))
        return skip('older than the voter’s latest vote')
      tx.delete(pollVotes).where(and(ofPoll, sameVoter)).run()
      tx.insert(pollVotes)
        .values({
          sessionId,
          pollId: vote.pollId,
          voter,
          voterPhone: vote.voterPhone ?? null,
          voterLid: vote.voterLid ?? null,
          voteId: vote.id,
          options: vote.selectedOptions,
          votedAt: vote.timestamp,
        })
        .run()
      const votes = tallyVotes(poll.content.options ?? [], tx.select().from(pollVotes).where(ofPoll).all())
      const updated = tx
        .update(messages)
        .set({ content: { ...poll.content, votes }, updatedAt: ctx.clock.now() })
        .where(and(eq(messages.sessionId, sessionId), eq(messages.id, poll.id)))
        .returning()
        .get()!
      ctx.outbox.record(tx, {
        sessionId,
        type: 'message.poll_vote',
        data: {
          messageId: poll.id,
          phone: updated.phone,
          lid: updated.lid === null ? null : `${updated.lid}@lid`,
          voter,
          voterPhone: vote.voterPhone ?? null,
          voterLid: vote.voterLid ? `${vote.voterLid}@lid` : null,
          fromMe: vote.fromMe,
          selectedOptions: vote.selectedOptions,
          votedAt: vote.timestamp.toISOString(),
          votes,
        },
      })
      ctx.logger.debug({ sessionId, pollId: poll.id, options: vote.selectedOptions.length }, 'poll vote recorded')
    },
    { behavior: 'immediate' },
  )
}

/** The session's own poll (sent through the API or from its phone), in the chat the vote came from. */
const isOwnPollIn = (record: MessageRecord, vote: PollVote) =>
  record.type === 'poll' && record.direction === 'outbound' && isSameChat(record, vote)
