import { type BaileysEventMap, DisconnectReason } from '@whiskeysockets/baileys'
import type { Boom } from '@hapi/boom'
import type { LabelChange } from '../port/labels'
import type { ListenerContext } from './types'

type BaileysLabel = BaileysEventMap['labels.edit']
type LabelAssociation = BaileysEventMap['labels.association']['association']

/** Baileys' labels.edit, as a change: a label marked deleted is a deletion. */
export function toLabelEdit(edit: BaileysLabel): LabelChange | undefined {
  if (typeof edit.id !== 'string' || edit.id === '') return undefined
  if (edit.deleted) return { kind: 'deleted', labelId: edit.id }
  return {
    kind: 'edited',
    label: {
      id: edit.id,
      name: edit.name ?? '',
      color: Number.isInteger(edit.color) ? edit.color : 0,
      ...(edit.predefinedId ? { predefinedId: edit.predefinedId } : {}),
    },
  }
}

/** Baileys' labels.association, as a change; one without a chat (or message) is left out. */
export function toLabelAssociation(type: 'add' | 'remove', association: LabelAssociation): LabelChange | undefined {
  const { labelId, chatId } = association
  if (!labelId || !chatId) return undefined
  const labeled = type === 'add'
  if (association.type === 'label_jid') return { kind: 'chat', labelId, chatJid: chatId, labeled }
  if (!association.messageId) return undefined
  return { kind: 'message', labelId, chatJid: chatId, messageId: association.messageId, labeled }
}

/**
 * Label changes from app-state sync: the phone's (WhatsApp tells the device to resync the
 * collection) and this device's own (Baileys replays its patch as events once uploaded). The
 * labels the phone had before this device linked come by one sync of `regular` once the phone
 * shares the app-state key (or at the next login, until one sync went through): Baileys syncs
 * every collection at linking only with a history sync, which a session without `history` does
 * not ask for.
 */
export function attachLabelListener({ socket, logger, report }: ListenerContext): void {
  // Until `regular` has been synced once (Baileys then keeps its version), each login asks again:
  // the first sync can be cut by the restart WhatsApp asks for right after pairing.
  const syncOnce = async () => {
    if (!socket.authState.creds.myAppStateKeyId) return
    const { regular } = await socket.authState.keys.get('app-state-sync-version', ['regular'])
    if (!regular) await socket.resyncAppState(['regular'], false)
  }
  const sync = () =>
    syncOnce().catch((error: unknown) => {
      const closed = (error as Boom)?.output?.statusCode === DisconnectReason.connectionClosed
      if (closed)
        logger.debug({ err: error }, 'the labels sync was cut by the connection closing; the next login asks again')
      else logger.warn({ err: error }, 'could not sync the labels the phone had before linking')
    })
  socket.ev.on('creds.update', (update) => {
    if (update.myAppStateKeyId) sync()
  })
  socket.ev.on('connection.update', (update) => {
    if (update.connection === 'open') sync()
  })
  socket.ev.on('labels.edit', (edit) => {
    const change = toLabelEdit(edit)
    if (change) report({ type: 'label', change })
  })
  socket.ev.on('labels.association', ({ type, association }) => {
    const change = toLabelAssociation(type, association)
    if (change) report({ type: 'label', change })
  })
}
