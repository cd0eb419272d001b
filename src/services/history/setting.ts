import type { HistorySetting, Session } from '../../db/schema'
import type { ServiceContext } from '../context'
import { validationError } from '../validation-error'

/** maxMessages of a session that did not say. */
export const DEFAULT_HISTORY_MESSAGES = 10_000

/**
 * The history setting a session stores from what a client asked: maxMessages defaulted and held
 * to the operator's ceiling, and refused where history cannot be imported (the edge), rather
 * than stored and ignored. The one home of these rules (connect and update both come here).
 */
export function historySetting(
  ctx: ServiceContext,
  input: { days: number; maxMessages?: number | undefined },
): HistorySetting {
  const { history } = ctx.config
  if (!history.supported)
    throw validationError([
      {
        path: 'history',
        message:
          'cannot be used on this deployment: the Cloudflare edge does not import history (docs/edge.md); nothing was changed',
      },
    ])
  const maxMessages = input.maxMessages ?? Math.min(DEFAULT_HISTORY_MESSAGES, history.maxMessages)
  if (maxMessages > history.maxMessages)
    throw validationError([
      {
        path: 'history.maxMessages',
        message: `is more than this gateway allows (HISTORY_MAX_MESSAGES=${history.maxMessages}); nothing was changed`,
      },
    ])
  return { days: input.days, maxMessages }
}

/** What the engine asks WhatsApp for when this session links: none unless the session has history. */
export const historyAsk = (session: Pick<Session, 'history'>): { days: number } | undefined =>
  session.history ? { days: session.history.days } : undefined
