import { toChannelPost, toChannelUpdate } from '../channels/channel-mappers'
import type { ListenerContext } from './types'

/**
 * Posts of the channels the account follows: Baileys gives them as upserts of a `…@newsletter`
 * chat, decoded from their plaintext (not Signal), with the post's server id on the key. The
 * account's own posts come back as the server's ack, not as an upsert, so every one here is news.
 * Changes to a followed channel's name or description come as newsletter notifications.
 */
export function attachChannelListener({ socket, logger, report }: ListenerContext): void {
  socket.ev.on('messages.upsert', ({ messages }) => {
    for (const raw of messages) {
      const key = raw.key
      if (!key?.remoteJid?.endsWith('@newsletter') || key.fromMe) continue
      try {
        const serverId = (key as { server_id?: string }).server_id
        const attrs = { id: key.id ?? undefined, server_id: serverId, t: String(raw.messageTimestamp ?? '') }
        const post = toChannelPost(key.remoteJid, attrs, raw.message)
        if (post) report({ type: 'channel-post', post })
      } catch (error) {
        logger.warn({ err: error, messageId: key.id }, 'could not read a channel post')
      }
    }
  })
  // A followed channel's name or description changed (a newsletter notification's <update>).
  socket.ev.on('newsletter-settings.update', (event) => {
    const update = toChannelUpdate(event)
    if (update) report({ type: 'channel-updated', update })
  })
}
