import type { BaileysEventMap } from '@whiskeysockets/baileys'
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
 * shares the app-state key: Baileys syncs every collection at linking only with a history sync,
 * which a session without `history` does not ask for.
 */
export function attachLabelListener({ socket, logger, report }: ListenerContext): void {
  socket.ev.on('creds.update', (update) => {
    if (!update.myAppStateKeyId) return
    socket.resyncAppState(['regular'], false).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not sync the labels the phone had before linking')
    })
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
