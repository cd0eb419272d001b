import type { MessageStatus } from '../../../db/schema'

/** Progress of a sent message; receipts arrive merged and out of order, so only forward moves count. */
const PROGRESS: Partial<Record<MessageStatus, number>> = { pending: 0, sent: 1, delivered: 2, read: 3, played: 4 }

/**
 * Pure: whether a record in `current` may move to `next`. Never backwards; `failed` only
 * before WhatsApp confirmed delivery; `deleted` ends everything; inbound `received` only
 * becomes `read` (the session marked it read) or `deleted`.
 */
export function canAdvance(current: MessageStatus, next: MessageStatus): boolean {
  if (current === next || current === 'deleted' || current === 'failed') return false
  if (next === 'deleted') return true
  if (current === 'received') return next === 'read'
  if (next === 'received') return false
  if (next === 'failed') return current === 'pending' || current === 'sent'
  return (PROGRESS[next] ?? -1) > (PROGRESS[current] ?? Infinity)
}
