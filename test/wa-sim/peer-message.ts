// What the account's phone sends its own linked device as a peer message (category peer): the
// app-state key share and history-sync notifications. From the phone's LID, Signal-encrypted by
// the phone's device 0, kept in the device's offline queue until a receipt acknowledges it.
import type { BinaryNode, proto } from '@whiskeysockets/baileys'
import type { Account } from './account'
import { serverMessageId, unixNow } from './node-utils'
import { companionPeerName } from './phone-send'
import type { SimState } from './state'

export type PeerMessageKind = 'app-state-key' | 'history-sync'

/** One Signal session per device: encryptions for it run one after the other, in sending order. */
const queues = new WeakMap<Account, Promise<unknown>>()

/** Encrypts and sends `message` to the account's device (queued if it is offline); resolves with its id. */
export const sendPeerMessage = (
  state: SimState,
  account: Account,
  message: proto.IMessage,
  kind: PeerMessageKind,
  id = serverMessageId('3A'),
): Promise<string> => {
  const t = unixNow()
  const encrypt = async (): Promise<BinaryNode> => {
    const { type, ciphertext } = await account.primaryDevice.encrypt(
      companionPeerName(account),
      () => account.takeBundle(),
      message,
    )
    return {
      tag: 'message',
      // From the phone's LID, as WhatsApp relays what the phone sends its devices (phone-send.ts)
      attrs: {
        from: account.lidJid,
        sender_pn: account.pnJid,
        addressing_mode: 'lid',
        id,
        t,
        type: 'text',
        category: 'peer',
      },
      content: [{ tag: 'enc', attrs: { v: '2', type }, content: ciphertext }],
    }
  }
  const send = async (): Promise<string> => {
    const node = await encrypt()
    account.peerMessages.set(id, kind)
    account.unacknowledged.set(id, { node, reencrypt: encrypt })
    state.liveConnectionOf(account)?.sendNode(node)
    return id
  }
  const sent = (queues.get(account) ?? Promise.resolve()).then(send, send)
  queues.set(account, sent)
  return sent
}
