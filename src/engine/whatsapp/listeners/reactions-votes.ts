import { ownJids } from '../jid'
import { toPollVote } from '../messages/poll-vote'
import { toReaction } from '../messages/reaction'
import type { ListenerContext } from './types'

/**
 * Reactions and poll votes: add-ons to a message, not messages. A vote is decrypted here with the
 * secret in the poll's stored proto (`pollPayload`); one that cannot be (not our poll, no such
 * poll, a wrong key) is logged at debug and dropped: nothing an app could act on.
 */
export function attachReactionVoteListener(
  { socket, logger, report }: ListenerContext,
  pollPayload: (pollId: string) => Uint8Array | undefined,
): void {
  socket.ev.on('messages.upsert', ({ messages }) => {
    for (const raw of messages) {
      try {
        const own = ownJids(socket.user)
        const reaction = toReaction(raw, own)
        if (reaction) {
          report({ type: 'reaction', reaction })
          continue
        }
        const outcome = toPollVote(raw, own, pollPayload)
        if (!outcome) continue
        if ('vote' in outcome) report({ type: 'poll-vote', vote: outcome.vote })
        else
          logger.debug(
            { messageId: raw.key?.id, pollId: outcome.pollId, reason: outcome.skipped },
            'poll vote not recorded',
          )
      } catch (error) {
        logger.warn({ err: error, messageId: raw.key?.id }, 'could not read a reaction or poll vote')
      }
    }
  })
}
