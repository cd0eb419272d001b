import { getContentType, normalizeMessageContent, proto } from '@whiskeysockets/baileys'

/**
 * Why a stored proto cannot be forwarded, or undefined when it can. WhatsApp's apps never forward
 * a view-once message (the wrapper, or the flag on the media inside it); a proto that does not
 * decode or holds nothing has nothing to send. Pure.
 */
export function forwardRefusal(payload: Uint8Array): string | undefined {
  let message: proto.Message
  try {
    message = proto.Message.decode(payload)
  } catch {
    return 'its stored content cannot be read'
  }
  if (message.viewOnceMessage || message.viewOnceMessageV2 || message.viewOnceMessageV2Extension)
    return 'it is a view-once message'
  const content = normalizeMessageContent(message)
  const type = content ? getContentType(content) : undefined
  if (!content || !type) return 'it has no content'
  const inner = content[type] as { viewOnce?: boolean | null } | null | undefined
  if (inner && typeof inner === 'object' && inner.viewOnce) return 'it is a view-once message'
  return undefined
}
