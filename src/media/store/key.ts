import { createHash } from 'node:crypto'

/**
 * An inbound file's object name: a hash of its session and message id. Message ids come from
 * whoever sent the message, so they never become a path or an object name themselves.
 */
export const mediaKey = (sessionId: string, messageId: string): string =>
  createHash('sha256').update(`${sessionId}\0${messageId}`).digest('hex')
