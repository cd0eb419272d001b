/**
 * A delivery stream: one session's deliveries to one webhook (`webhookId` null: the session's
 * own webhookUrl). The dispatcher's unit of order: a stream's deliveries go out one at a time,
 * oldest first; streams proceed independently, so a dead webhook holds only its own.
 */
export interface Stream {
  sessionId: string
  webhookId: string | null
}

/** The schedule's key of a stream: the session id alone for its own webhook (ids hold no `/`). */
export const streamKey = (sessionId: string, webhookId: string | null): string =>
  webhookId ? `${sessionId}/${webhookId}` : sessionId

export function streamOf(key: string): Stream {
  const slash = key.indexOf('/')
  return slash < 0
    ? { sessionId: key, webhookId: null }
    : { sessionId: key.slice(0, slash), webhookId: key.slice(slash + 1) }
}
