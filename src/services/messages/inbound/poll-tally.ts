import type { PollTally } from '../../../shared/message-content'

/** One voter's current choice, as stored. */
export interface CastVote {
  voter: string
  options: string[]
  votedAt: Date
}

/** Pure: the poll's options in order, each with how many picked it and who (earliest vote first). */
export function tallyVotes(options: readonly string[], votes: readonly CastVote[]): PollTally {
  const ordered = [...votes].sort((a, b) => a.votedAt.getTime() - b.votedAt.getTime())
  return options.map((option) => {
    const voters = ordered.filter((vote) => vote.options.includes(option)).map((vote) => vote.voter)
    return { option, count: voters.length, voters }
  })
}

/** Pure: an empty tally, as a new poll's record starts. */
export const emptyTally = (options: readonly string[]): PollTally => tallyVotes(options, [])
