// What an account's client sends to a channel: one <plaintext> proto (never Signal-encrypted),
// taken only from its owner or an admin. A send to an unknown channel or one the account does not
// run is refused in the ack (WhatsApp's 404 / 403) and recorded as a violation; a send that is not
// a single plaintext is malformed. An accepted post gets its server id in the ack and reaches
// every other follower live.
import { proto, type BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import { postToChannel } from './channels'
import type { Connection } from './connection'
import { childOf, childrenOf, contentBytes, unixNow } from './node-utils'
import type { SimState } from './state'

export const handleChannelMessage = (state: SimState, connection: Connection, account: Account, node: BinaryNode) => {
  const id = node.attrs.id ?? ''
  const to = node.attrs.to ?? ''
  const ack = (extra: Record<string, string>) =>
    connection.sendNode({ tag: 'ack', attrs: { class: 'message', id, from: to, t: unixNow(), ...extra } })
  const refuse = (code: string, why: string) => {
    state.violations.record(account.phone, 'malformed-node', `channel send ${id}: ${why}`)
    ack({ error: code })
  }
  const channel = state.channels.get(to)
  if (!channel) return refuse('404', `to the unknown channel ${to}`)
  if (channel.owner !== account.phone && !channel.admins.has(account.phone))
    return refuse('403', `to ${to}, which the account neither owns nor admins`)
  const plaintext = childOf(node, 'plaintext')
  const bytes = contentBytes(plaintext)
  if (!bytes || childrenOf(node).some((child) => child.tag === 'enc' || child.tag === 'participants'))
    return refuse('400', 'not a single <plaintext>')
  let message: proto.IMessage
  try {
    message = proto.Message.decode(bytes)
  } catch {
    return refuse('400', 'a <plaintext> that is no proto.Message')
  }
  const post = postToChannel(state, channel, message, account.phone, id)
  ack({ server_id: String(post.serverId) })
  account.sentMessageIds.add(id)
}
