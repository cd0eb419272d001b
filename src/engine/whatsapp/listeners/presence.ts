import { type BinaryNode, jidDecode } from '@whiskeysockets/baileys'
import type { ContactPresence, PresenceState } from '../port/contacts'
import type { ListenerContext } from './types'

type Relayed = Omit<ContactPresence, 'phone' | 'lid'> & { jid: string }

/**
 * A <presence> or <chatstate> WhatsApp relayed, read from the node itself: Baileys' own
 * presence.update reports a stopped typing ("paused") as "available", which is another thing.
 * Group online counts and anything not from a person are left out.
 */
export function relayedPresence(node: BinaryNode): Relayed | undefined {
  const from = node.attrs.from ?? ''
  const server = jidDecode(from)?.server
  if (node.tag === 'presence') {
    if (server !== 's.whatsapp.net' && server !== 'lid') return undefined
    const state: PresenceState = node.attrs.type === 'unavailable' ? 'unavailable' : 'available'
    const last = Number(node.attrs.last)
    const lastSeen =
      state === 'unavailable' && Number.isSafeInteger(last) && last > 0 ? new Date(last * 1000) : undefined
    return { jid: from, state, ...(lastSeen ? { lastSeen } : {}) }
  }
  const child = Array.isArray(node.content) ? node.content[0] : undefined
  const state: PresenceState | undefined =
    child?.tag === 'paused'
      ? 'paused'
      : child?.tag === 'composing'
        ? child.attrs.media === 'audio'
          ? 'recording'
          : 'composing'
        : undefined
  if (!state) return undefined
  if (server === 'g.us') {
    const participant = node.attrs.participant
    return participant ? { jid: participant, group: from, state } : undefined
  }
  return server === 's.whatsapp.net' || server === 'lid' ? { jid: from, state } : undefined
}

/**
 * Contacts' presence (after a subscription) and typing, reported in the order WhatsApp sent
 * them; a LID is reported with the number behind it when the account knows it.
 */
export function attachPresenceListener({ socket, logger, report }: ListenerContext): void {
  let last = Promise.resolve()
  const onNode = (node: BinaryNode) => {
    const relayed = relayedPresence(node)
    if (!relayed) return
    last = last
      .then(async () => {
        const { jid, ...presence } = relayed
        const decoded = jidDecode(jid)
        if (!decoded?.user) return
        const lid = decoded.server === 'lid' ? decoded.user : undefined
        const phone =
          decoded.server === 'lid'
            ? jidDecode((await socket.signalRepository.lidMapping.getPNForLID(jid)) ?? '')?.user
            : decoded.user
        report({ type: 'presence', presence: { ...presence, ...(phone ? { phone } : {}), ...(lid ? { lid } : {}) } })
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not read a presence update'))
  }
  socket.ws.on('CB:presence', onNode)
  socket.ws.on('CB:chatstate', onNode)
}
