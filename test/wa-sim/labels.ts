// WhatsApp Business labels, the phone's side. Labels are app-state (the `regular` collection):
// `label_edit` mutations name a label, `label_jid` and `label_message` ones put it on a chat or a
// message. The phone keeps what a device uploads after checking it as the Business app would
// (only a business account has labels, at most 20, a colour of the palette's 20, no association
// with a label it does not have), and changes labels itself: it encodes a patch with the shared
// key, appends it to the collection and tells the device with <notification type="server_sync">,
// which is how a real phone's changes reach linked devices.
import { type BinaryNode, type ChatModification, proto } from '@whiskeysockets/baileys'
import { chatModificationToAppPatch, encodeSyncdPatch } from '@whiskeysockets/baileys/lib/Utils/chat-utils.js'
import type { Account } from './account'
import { type AppState, appStateOf, collectionOf } from './app-state'
import { serverMessageId, unixNow } from './node-utils'
import { profileOf } from './profiles'
import type { SimState } from './state'

/** The Business app's limits: 20 labels, a name of 1–100 characters, colours 0–19. */
export const LABELS_MAX = 20
export const LABEL_NAME_MAX_CHARS = 100
export const LABEL_COLORS = 20

export interface SimLabel {
  id: string
  name: string
  color: number
  predefinedId?: number
}

/** One account's labels and what they are on: chats by jid, messages as `chat jid` + `message id`. */
export interface LabelBook {
  labels: Map<string, SimLabel>
  chats: Map<string, Set<string>>
  messages: Map<string, Set<string>>
}

export const emptyLabelBook = (): LabelBook => ({ labels: new Map(), chats: new Map(), messages: new Map() })

/** A business account: WhatsApp keeps a business profile for it (setProfile `business`). */
export const isBusiness = (state: SimState, phone: string): boolean => profileOf(state, phone).business !== undefined

type Mutation = { syncAction: proto.ISyncActionData; index: string[] }

/**
 * A verified mutation of a device's upload about labels: kept, or recorded as a violation (the
 * phone ignores it, as it ignores an over-long push name). Answers false for any other mutation.
 */
export const applyLabelMutation = (state: SimState, account: Account, book: LabelBook, mutation: Mutation): boolean => {
  const value = mutation.syncAction.value
  if (!value?.labelEditAction && !value?.labelAssociationAction) return false
  const problem = labelProblem(state, account.phone, book, mutation)
  if (problem) state.violations.record(account.phone, 'invalid-label', problem)
  else keep(book, mutation)
  return true
}

const labelProblem = (state: SimState, phone: string, book: LabelBook, { syncAction, index }: Mutation) => {
  if (!isBusiness(state, phone))
    return `${index[0]} from ${phone}, a personal account: only business accounts have labels`
  const [kind, labelId] = index
  if (!labelId) return `${kind} without a label id`
  const edit = syncAction.value?.labelEditAction
  if (edit) {
    if (kind !== 'label_edit') return `a label edit indexed ${kind}`
    if (edit.deleted) return book.labels.has(labelId) ? undefined : `deletes label ${labelId}, which does not exist`
    const name = edit.name ?? ''
    if (name.trim() === '' || [...name].length > LABEL_NAME_MAX_CHARS)
      return `label name of ${[...name].length} characters: the Business app takes 1 to ${LABEL_NAME_MAX_CHARS}`
    const color = edit.color ?? -1
    if (!Number.isInteger(color) || color < 0 || color >= LABEL_COLORS)
      return `label colour ${color}: WhatsApp's palette has ${LABEL_COLORS} (0–${LABEL_COLORS - 1})`
    if (!book.labels.has(labelId) && book.labels.size >= LABELS_MAX)
      return `a ${LABELS_MAX + 1}st label: the Business app keeps ${LABELS_MAX}`
    return undefined
  }
  if (kind !== 'label_jid' && kind !== 'label_message') return `a label association indexed ${kind}`
  if (!book.labels.has(labelId)) return `${kind} with label ${labelId}, which does not exist`
  if (!index[2]?.includes('@')) return `${kind} without a chat jid`
  if (kind === 'label_message' && !index[3]) return 'label_message without a message id'
  return undefined
}

const keep = (book: LabelBook, { syncAction, index }: Mutation): void => {
  const [kind, labelId = '', chat = '', messageId = ''] = index
  const edit = syncAction.value?.labelEditAction
  if (edit) {
    if (edit.deleted) {
      book.labels.delete(labelId)
      book.chats.delete(labelId)
      book.messages.delete(labelId)
    } else
      book.labels.set(labelId, {
        id: labelId,
        name: edit.name ?? '',
        color: edit.color ?? 0,
        ...(edit.predefinedId ? { predefinedId: edit.predefinedId } : {}),
      })
    return
  }
  const map = kind === 'label_jid' ? book.chats : book.messages
  const key = kind === 'label_jid' ? chat : `${chat} ${messageId}`
  const set = map.get(labelId) ?? new Set<string>()
  if (syncAction.value?.labelAssociationAction?.labeled) set.add(key)
  else set.delete(key)
  map.set(labelId, set)
}

/** What the phone holds, for tests: labels by id with their chats (jids) and messages (`jid id`). */
export interface LabelView extends SimLabel {
  chats: string[]
  messages: string[]
}

export const viewLabels = (book: LabelBook): LabelView[] =>
  [...book.labels.values()].map((label) => ({
    ...label,
    chats: [...(book.chats.get(label.id) ?? [])].sort(),
    messages: [...(book.messages.get(label.id) ?? [])].sort(),
  }))

/**
 * The account's phone changes a label: a patch to `regular` encoded with the key it shared,
 * appended to the collection (devices read it on their next sync), then a server_sync
 * notification to the live device so it syncs now. Not checked: the phone is the authority.
 */
export const changeLabelsOnPhone = async (
  state: SimState,
  account: Account,
  mod: ChatModification,
  jid = '',
): Promise<void> => {
  const appState = appStateOf(state, account.phone)
  const create = chatModificationToAppPatch(mod, jid)
  const collection = collectionOf(appState, create.type)
  const keyId = appState.key.id.toString('base64')
  const { patch, state: next } = await encodeSyncdPatch(
    create,
    keyId,
    { version: collection.version, hash: collection.hash, indexValueMap: collection.indexValueMap },
    keyOf(appState),
  )
  const encoded = proto.SyncdPatch.encode({ ...patch, version: { version: next.version } }).finish()
  Object.assign(collection, { version: next.version, hash: next.hash, indexValueMap: next.indexValueMap })
  collection.patches.push(Buffer.from(encoded))
  keep(appState.labels, { syncAction: { value: create.syncAction }, index: create.index })
  state.liveConnectionOf(account)?.sendNode(serverSync(create.type, next.version))
}

const keyOf =
  (appState: AppState) =>
  async (id: string): Promise<proto.Message.IAppStateSyncKeyData | null> =>
    id === appState.key.id.toString('base64') ? { keyData: appState.key.data } : null

const serverSync = (collection: string, version: number): BinaryNode => ({
  tag: 'notification',
  attrs: { from: 's.whatsapp.net', type: 'server_sync', id: serverMessageId('SYNC'), t: unixNow() },
  content: [{ tag: 'collection', attrs: { name: collection, version: String(version) } }],
})

/** A test's hold on an account's labels: what its phone keeps, and the phone changing them. */
export class PhoneLabels {
  constructor(
    private readonly state: SimState,
    private readonly account: Account,
  ) {}

  /** The labels the phone keeps, with the chats and messages each is on. */
  list(): LabelView[] {
    return viewLabels(appStateOf(this.state, this.account.phone).labels)
  }

  /** The phone creates or changes a label. */
  save(label: { id: string; name: string; color: number }): Promise<void> {
    return changeLabelsOnPhone(this.state, this.account, { addLabel: { ...label, deleted: false } })
  }

  /** The phone deletes a label. */
  remove(id: string): Promise<void> {
    return changeLabelsOnPhone(this.state, this.account, { addLabel: { id, name: '', color: 0, deleted: true } })
  }

  /** The phone puts a label on a chat (a user's or group's jid), or takes it off. */
  labelChat(labelId: string, chatJid: string, labeled = true): Promise<void> {
    const mod = labeled ? { addChatLabel: { labelId } } : { removeChatLabel: { labelId } }
    return changeLabelsOnPhone(this.state, this.account, mod, chatJid)
  }

  /** The phone puts a label on a message of a chat, or takes it off. */
  labelMessage(labelId: string, chatJid: string, messageId: string, labeled = true): Promise<void> {
    const mod = labeled ? { addMessageLabel: { labelId, messageId } } : { removeMessageLabel: { labelId, messageId } }
    return changeLabelsOnPhone(this.state, this.account, mod, chatJid)
  }
}
