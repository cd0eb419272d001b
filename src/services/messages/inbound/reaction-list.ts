import type { MessageReaction } from '../../../shared/message-content'

/** A reaction as it arrives: who (every name they may be stored under), which emoji ('' removes), when. */
export interface ReactionChange {
  from: string
  names: string[]
  emoji: string
  at: Date
}

/**
 * Pure: a record's reactions after one person's change, or null when nothing changes (the same
 * reaction relayed again, a removal of nothing, or an older reaction arriving after a newer one).
 * One reaction per person: a new emoji replaces theirs, '' deletes it.
 */
export function applyReactionChange(
  current: readonly MessageReaction[],
  change: ReactionChange,
): MessageReaction[] | null {
  const theirs = current.filter((reaction) => change.names.includes(reaction.from))
  const others = current.filter((reaction) => !change.names.includes(reaction.from))
  const latest = theirs.map((reaction) => Date.parse(reaction.reactedAt)).reduce((a, b) => Math.max(a, b), -Infinity)
  if (latest > change.at.getTime()) return null
  if (change.emoji === '') return theirs.length > 0 ? others : null
  const same = theirs.length === 1 && theirs[0]!.emoji === change.emoji && latest === change.at.getTime()
  if (same) return null
  return [...others, { from: change.from, emoji: change.emoji, reactedAt: change.at.toISOString() }]
}
