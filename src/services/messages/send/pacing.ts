import type { Session, SendPacing } from '../../../db/schema'
import type { OutboundContent } from '../../../engine/whatsapp/port/messages'
import type { GatewayConfig } from '../../../config'

/**
 * "Typing…" lasts about as long as a person would take to type the text, within bounds: long
 * enough to be seen, short enough that a long text does not hold a session's queue for a minute.
 */
export const TYPING_MS_PER_CHARACTER = 50
export const MIN_PRESENCE_MS = 800
export const MAX_PRESENCE_MS = 6_000

/** The pacing a session's sends follow: its own, else the operator's SEND_PACING_* defaults. */
export const sessionPacing = (
  ctx: { config: Pick<GatewayConfig, 'sendPacing'> },
  session: Pick<Session, 'sendPacing'>,
): SendPacing => session.sendPacing ?? ctx.config.sendPacing

/** Zero interval, zero jitter, no typing: the send path does not touch the queue at all. */
export const isPaced = (pacing: SendPacing) => pacing.minIntervalMs > 0 || pacing.jitterMs > 0 || pacing.typing

/** The gap before a send: the interval plus a random share of the jitter, drawn once per send. */
export const drawGapMs = (pacing: SendPacing, random: () => number = Math.random) =>
  pacing.minIntervalMs + Math.floor(random() * (pacing.jitterMs + 1))

export interface TurnPlan {
  /** When the send begins: its "typing…", or its hand-over when it shows none. */
  startsAt: number
  /** When it is handed over, were hand-overs instant. */
  handoverAt: number
}

/**
 * When a paced send's turn comes, planned from the hand-over before it (monotonic ms; −∞ when
 * none). A turn begins once the previous send is handed over, and ends at least its gap after
 * that hand-over: each turn takes max(gap, typing), so a queue of typing-only sends advances by
 * their typing and SEND_QUEUE_MAX_WAIT_MS can bound it.
 */
export function planTurn(
  now: number,
  previousHandoverAt: number,
  { gapMs, presenceMs }: { gapMs: number; presenceMs: number },
): TurnPlan {
  const startsAt = Math.max(now, previousHandoverAt + Math.max(0, gapMs - presenceMs))
  return { startsAt, handoverAt: startsAt + presenceMs }
}

export interface PresenceBeforeSend {
  state: 'composing' | 'recording'
  ms: number
}

const clampPresence = (ms: number) => Math.min(MAX_PRESENCE_MS, Math.max(MIN_PRESENCE_MS, Math.round(ms)))

/** The words a person would type for this message (a caption, a list's text); none for a location or a card. */
function typedText(content: OutboundContent): string {
  switch (content.kind) {
    case 'text':
    case 'list':
    case 'buttons':
      return content.text
    case 'image':
    case 'video':
    case 'document':
      return content.caption ?? ''
    default:
      return ''
  }
}

/**
 * What the chat shows before this message with typing on: "recording…" for the length of a
 * voice note, "typing…" for the length of its text (a message with none: the least), bounded.
 */
export function presenceBefore(content: OutboundContent): PresenceBeforeSend {
  if (content.kind === 'voice') return { state: 'recording', ms: clampPresence(content.seconds * 1000) }
  return { state: 'composing', ms: clampPresence([...typedText(content)].length * TYPING_MS_PER_CHARACTER) }
}
