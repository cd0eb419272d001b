import type { proto } from '@whiskeysockets/baileys'

/** A poll as records show it: the question, its options in order, how many one person may pick. */
export interface PollSummary {
  question: string
  options: string[]
  /** 0: any number (WhatsApp's "allow multiple answers" without a limit). */
  selectableCount: number
}

/**
 * The poll creation message of whichever version the sender used: V3 for single-choice polls,
 * the first version for multiple choice, V2 for community announcement groups, V5 in newer clients.
 */
export function pollCreationOf(message: proto.IMessage): proto.Message.IPollCreationMessage | undefined {
  return (
    message.pollCreationMessage ??
    message.pollCreationMessageV2 ??
    message.pollCreationMessageV3 ??
    message.pollCreationMessageV5 ??
    undefined
  )
}

/** Pure: a poll creation message → its summary. */
export function describePoll(poll: proto.Message.IPollCreationMessage): PollSummary {
  return {
    question: poll.name ?? '',
    options: (poll.options ?? []).map((option) => option.optionName ?? ''),
    selectableCount: poll.selectableOptionsCount ?? 0,
  }
}
