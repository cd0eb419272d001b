import { type ChatModification, jidNormalizedUser, type WASocket } from '@whiskeysockets/baileys'
import { toBusinessProfile } from '../contacts/contact-profile'
import type { Label, SessionLabels } from '../port/labels'
import { appStatePatch } from '../socket/app-state-patch'
import { withNetworkErrors } from '../socket/network-errors'
import { serverQuery } from '../socket/server-query'

export interface LabelLayerDeps {
  /** The logged-in socket; throws EngineError not_connected otherwise. */
  socket(): WASocket
  queryTimeoutMs: number
}

/**
 * The account's labels (SessionHandle.labels), each change one app-state patch through Baileys'
 * chatModify (label_edit, label_jid and label_message mutations of the `regular` collection).
 * What WhatsApp then holds comes back through app-state sync as `label` facts, ours and the
 * phone's alike (listeners/labels.ts).
 */
export class LabelLayer implements SessionLabels {
  #business: { socket: WASocket; value: boolean } | undefined

  constructor(private readonly deps: LabelLayerDeps) {}

  isBusiness(): Promise<boolean> {
    return withNetworkErrors(async () => {
      const socket = this.deps.socket()
      if (this.#business?.socket === socket) return this.#business.value
      const own = jidNormalizedUser(socket.user?.id)
      const answer = await serverQuery(
        socket,
        {
          tag: 'iq',
          attrs: { to: 's.whatsapp.net', xmlns: 'w:biz', type: 'get' },
          content: [
            { tag: 'business_profile', attrs: { v: '244' }, content: [{ tag: 'profile', attrs: { jid: own } }] },
          ],
        },
        'the own business profile query',
      )
      // Only a business account has a business profile: WhatsApp answers a personal one with none.
      const value = toBusinessProfile(answer) !== undefined
      this.#business = { socket, value }
      return value
    })
  }

  get canEdit(): boolean {
    try {
      return Boolean(this.deps.socket().authState.creds.myAppStateKeyId)
    } catch {
      return false
    }
  }

  save(label: Label): Promise<void> {
    const { id, name, color, predefinedId } = label
    const predefined = predefinedId === undefined ? undefined : Number(predefinedId)
    return this.#patch(
      { addLabel: { id, name, color, deleted: false, predefinedId: predefined } },
      '',
      'the label change',
    )
  }

  remove(labelId: string): Promise<void> {
    // WhatsApp deletes a label by writing it again marked deleted (its name and colour kept empty)
    return this.#patch({ addLabel: { id: labelId, name: '', color: 0, deleted: true } }, '', 'the label deletion')
  }

  setChatLabel(chatJid: string, labelId: string, labeled: boolean): Promise<void> {
    const mod: ChatModification = labeled ? { addChatLabel: { labelId } } : { removeChatLabel: { labelId } }
    return this.#patch(mod, chatJid, labeled ? 'the chat’s label' : 'the chat label’s removal')
  }

  setMessageLabel(chatJid: string, messageId: string, labelId: string, labeled: boolean): Promise<void> {
    const mod: ChatModification = labeled
      ? { addMessageLabel: { labelId, messageId } }
      : { removeMessageLabel: { labelId, messageId } }
    return this.#patch(mod, chatJid, labeled ? 'the message’s label' : 'the message label’s removal')
  }

  #patch(mod: ChatModification, jid: string, what: string): Promise<void> {
    return withNetworkErrors(() => {
      const socket = this.deps.socket()
      return appStatePatch(() => socket.chatModify(mod, jid), this.deps.queryTimeoutMs, what)
    })
  }
}
