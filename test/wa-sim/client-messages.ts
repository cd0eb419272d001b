// What a client sends as <message>: the server ack, strict checks, decryption by every contact
// device it was encrypted for (1:1 and group sender keys), and optional automatic receipts.
import { normalizeMessageContent, proto } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import { checkAddons } from './addon-checks'
import { handleChannelMessage } from './channel-send'
import type { Connection } from './connection'
import type { Contact } from './contact'
import { hasBlocked, pushNameOf } from './profiles'
import { sendReceipt } from './contact-actions'
import { childOf, childrenOf, contentBytes, STATUS_JID, unixNow } from './node-utils'
import { stanzaInfoOf } from './stanza-info'
import type { SimState } from './state'

/** The name a contact's Signal store uses for one account device (the same for PN and LID addressing). */
export const accountPeerName = (account: Account): string => `acct_${account.phone}_${account.deviceId}`

const splitJid = (jid: string): { user: string; device: number; server: string } => {
  const [userPart = '', server = ''] = jid.split('@')
  const [user = '', device = '0'] = userPart.split(':')
  return { user, device: Number(device.split('.')[0] ?? 0), server }
}

export const handleClientMessage = async (state: SimState, connection: Connection, node: BinaryNode): Promise<void> => {
  const account = connection.account
  const id = node.attrs.id
  const to = node.attrs.to
  if (!account || !id || !to) return
  account.stats.messagesReceived++
  if (account.unresponsive) return // the server takes it and says nothing: no ack, no delivery
  const target = splitJid(to)
  if (target.server === 'newsletter') return handleChannelMessage(state, connection, account, node)
  if (to === STATUS_JID) {
    connection.sendNode({ tag: 'ack', attrs: { class: 'message', id, from: to, t: unixNow() } })
    await handleStatusMessage(state, account, node)
    account.sentMessageIds.add(id)
    return
  }
  if (target.server !== 'g.us' && account.restrictNewChats && !account.chats.has(target.user)) {
    // WhatsApp's answer to a restricted account opening a chat: the message goes nowhere
    connection.sendNode({ tag: 'ack', attrs: { class: 'message', id, from: to, t: unixNow(), error: '463' } })
    return
  }
  connection.sendNode({ tag: 'ack', attrs: { class: 'message', id, from: to, t: unixNow() } })
  if (target.server !== 'g.us') rememberChat(state, account, target.user, target.server)
  if (target.server === 'g.us') await handleGroupMessage(state, account, node, to)
  else await handleDirectMessage(state, account, node, target)
  account.sentMessageIds.add(id)
}

/** Both forms of the other party, so a chat opened by phone is known by LID too. */
export const rememberChat = (state: SimState, account: Account, user: string, server: string): void => {
  const { contact, account: other } = state.lookupUser(user, server)
  for (const known of [user, contact?.phone, contact?.lid, other?.phone, other?.lid])
    if (known) account.chats.add(known)
}

/** Account to account: the server hands the recipient device its own <enc>, from the sender's LID device. */
const relayToAccount = (
  state: SimState,
  sender: Account,
  recipient: Account,
  node: BinaryNode,
  encs: ReturnType<typeof recipientsOf>,
): void => {
  const connection = state.liveConnectionOf(recipient)
  const enc = encs[0]?.enc
  // A user the recipient blocked reaches nothing of it; the sender's own phone cannot tell
  if (!connection || !enc || hasBlocked(state, recipient.phone, sender.phone)) return
  const deviceIdentity = childOf(node, 'device-identity')
  connection.sendNode({
    tag: 'message',
    attrs: {
      from: `${sender.lid}:${sender.deviceId}@lid`,
      sender_pn: `${sender.phone}:${sender.deviceId}@s.whatsapp.net`,
      addressing_mode: 'lid',
      id: node.attrs.id ?? '',
      type: node.attrs.type ?? 'text',
      t: unixNow(),
      notify: pushNameOf(state, sender.phone, `Account ${sender.phone}`),
    },
    content: [enc, ...(deviceIdentity ? [deviceIdentity] : [])],
  })
}

const recipientsOf = (node: BinaryNode): { jid: string; enc: BinaryNode }[] =>
  childrenOf(childOf(node, 'participants'))
    .filter((child) => child.tag === 'to')
    .flatMap((child) => {
      const enc = childOf(child, 'enc')
      return enc && child.attrs.jid ? [{ jid: child.attrs.jid, enc }] : []
    })

/** The <to> nodes addressed to one user's device (by PN or LID). */
const addressedTo = (recipients: ReturnType<typeof recipientsOf>, users: string[], device: number) =>
  recipients.filter((r) => {
    const parsed = splitJid(r.jid)
    return parsed.device === device && users.includes(parsed.user)
  })

const handleDirectMessage = async (
  state: SimState,
  account: Account,
  node: BinaryNode,
  target: ReturnType<typeof splitJid>,
): Promise<void> => {
  const { contact, account: recipientAccount } = state.lookupUser(target.user, target.server)
  const recipients = recipientsOf(node)
  if (recipientAccount && recipientAccount !== account) {
    // Another simulated account: usync announced its phone (0) and its linked companion
    const announced = recipientAccount.linked ? [0, recipientAccount.deviceId] : [0]
    for (const device of announced) {
      if (addressedTo(recipients, [recipientAccount.phone, recipientAccount.lid], device).length === 0) {
        state.violations.record(
          account.phone,
          'missing-device-encryption',
          `message ${node.attrs.id} has no <enc> for ${recipientAccount.lid}:${device}@lid`,
        )
      }
    }
    relayToAccount(
      state,
      account,
      recipientAccount,
      node,
      addressedTo(recipients, [recipientAccount.phone, recipientAccount.lid], recipientAccount.deviceId),
    )
    return
  }
  if (!contact) return
  // usync also announced the sender's own phone (device 0): it gets the device-sent copy
  if (addressedTo(recipients, [account.phone, account.lid], 0).length === 0) {
    state.violations.record(
      account.phone,
      'missing-device-encryption',
      `message ${node.attrs.id} has no <enc> for the account's own phone ${account.lidJid} device 0`,
    )
  }
  // The contact announced device 0 in usync, so the client must have encrypted for it
  const forContact = addressedTo(recipients, [contact.phone, contact.lid], 0)
  if (forContact.length === 0) {
    state.violations.record(
      account.phone,
      'missing-device-encryption',
      `message ${node.attrs.id} to ${node.attrs.to} has no <enc> for ${contact.lidJid} device 0`,
    )
    return
  }
  for (const recipient of forContact) {
    const message = await decryptFor(state, account, contact, node, recipient.enc)
    if (!message) continue
    checkReferences(state, account, node, message)
    checkAddons(state, account, node, message, { contact })
    if (hasContent(message)) {
      contact.inbox.push({
        id: node.attrs.id ?? '',
        from: account.phone,
        chat: contact.pnJid,
        message,
        timestamp: Date.now(),
        stanza: stanzaInfoOf(node, recipient.enc),
      })
    }
  }
  if (state.options.autoReceipts) {
    const id = node.attrs.id ?? ''
    // Best effort: the client may already be gone when the contact's phone gets to it
    const receipt = (type: 'delivered' | 'read') => () => {
      if (state.liveConnectionOf(account)) sendReceipt(state, account, contact, id, type)
    }
    setTimeout(receipt('delivered'), 30)
    setTimeout(receipt('read'), 60)
  }
}

const handleGroupMessage = async (
  state: SimState,
  account: Account,
  node: BinaryNode,
  groupJid: string,
): Promise<void> => {
  const group = state.groups.get(groupJid)
  if (!group) return
  await deliverSenderKeyMessage(state, account, node, groupJid, group.participants)
}

/**
 * A status (story): sent like a group message to the contacts the client listed (Baileys'
 * statusJidList), each given the sender key in the same stanza. WhatsApp refuses one shown to nobody.
 */
const handleStatusMessage = async (state: SimState, account: Account, node: BinaryNode): Promise<void> => {
  const audience = recipientsOf(node).flatMap((recipient) => {
    const parsed = splitJid(recipient.jid)
    const { contact } = state.lookupUser(parsed.user, parsed.server)
    return contact && parsed.device === 0 ? [contact.phone] : []
  })
  if (audience.length === 0) {
    state.violations.record(account.phone, 'malformed-node', `status ${node.attrs.id} is shown to no contact`)
    return
  }
  await deliverSenderKeyMessage(state, account, node, STATUS_JID, audience)
}

/** Sender-key delivery to `audience` (phones): distribution messages first, then the skmsg each decrypts. */
const deliverSenderKeyMessage = async (
  state: SimState,
  account: Account,
  node: BinaryNode,
  groupJid: string,
  audience: readonly string[],
): Promise<void> => {
  const holders = account.senderKeyHolders.get(groupJid) ?? new Set<string>()
  account.senderKeyHolders.set(groupJid, holders)
  for (const recipient of recipientsOf(node)) {
    const parsed = splitJid(recipient.jid)
    const { contact } = state.lookupUser(parsed.user, parsed.server)
    if (!contact || parsed.device !== 0) continue
    const message = await decryptFor(state, account, contact, node, recipient.enc)
    const skdm = message?.senderKeyDistributionMessage?.axolotlSenderKeyDistributionMessage
    if (skdm) {
      await contact.processSenderKey(groupJid, accountPeerName(account), skdm)
      holders.add(contact.phone)
    }
  }
  const skmsg = childrenOf(node).find((child) => child.tag === 'enc' && child.attrs.type === 'skmsg')
  const ciphertext = contentBytes(skmsg)
  if (!ciphertext) {
    state.violations.record(account.phone, 'malformed-node', `group message ${node.attrs.id} has no skmsg <enc>`)
    return
  }
  for (const phone of audience) {
    const contact = state.contacts.get(phone)
    if (!contact) continue
    if (!holders.has(phone)) {
      state.violations.record(
        account.phone,
        'missing-device-encryption',
        `group message ${node.attrs.id}: ${contact.lidJid} never received the sender key`,
      )
      continue
    }
    try {
      const message = await contact.decryptGroup(groupJid, accountPeerName(account), ciphertext)
      checkReferences(state, account, node, message)
      checkAddons(state, account, node, message, { contact, group: groupJid })
      if (hasContent(message))
        contact.inbox.push({
          id: node.attrs.id ?? '',
          from: account.phone,
          chat: groupJid,
          message,
          timestamp: Date.now(),
          stanza: stanzaInfoOf(node, skmsg),
        })
    } catch (error) {
      state.violations.record(
        account.phone,
        'undecryptable-message',
        `group message ${node.attrs.id} for ${phone}: ${(error as Error).message}`,
      )
    }
  }
}

const decryptFor = async (
  state: SimState,
  account: Account,
  contact: Contact,
  node: BinaryNode,
  enc: BinaryNode,
): Promise<proto.IMessage | undefined> => {
  try {
    return await contact.device.decryptMessage(
      accountPeerName(account),
      enc.attrs.type ?? '',
      contentBytes(enc) ?? Buffer.alloc(0),
    )
  } catch (error) {
    state.violations.record(
      account.phone,
      'undecryptable-message',
      `message ${node.attrs.id} for ${contact.phone}: ${(error as Error).message}`,
    )
    return undefined
  }
}

/**
 * A message carrying only a sender key (or nothing) is plumbing, not something the contact reads;
 * protocol messages (edits, revokes) are kept, as the contact's phone acts on them.
 */
const hasContent = (message: proto.IMessage): boolean =>
  Object.keys(proto.Message.toObject(proto.Message.fromObject(message))).some(
    (key) => key !== 'senderKeyDistributionMessage' && key !== 'messageContextInfo',
  )

/** Edits and deletes must reference a message this account really sent. */
const checkReferences = (state: SimState, account: Account, node: BinaryNode, message: proto.IMessage): void => {
  const normalized = normalizeMessageContent(message)
  const protocol = normalized?.protocolMessage ?? normalized?.editedMessage?.message?.protocolMessage
  const Type = proto.Message.ProtocolMessage.Type
  if (!protocol || (protocol.type !== Type.REVOKE && protocol.type !== Type.MESSAGE_EDIT)) return
  const referenced = protocol.key?.id
  if (!referenced || !account.sentMessageIds.has(referenced)) {
    const kind = protocol.type === Type.REVOKE ? 'delete' : 'edit'
    state.violations.record(
      account.phone,
      'unknown-message-reference',
      `${kind} ${node.attrs.id} (edit attr ${node.attrs.edit ?? 'none'}) references unknown message ${referenced ?? '(none)'}`,
    )
  }
  if (!node.attrs.edit) {
    state.violations.record(
      account.phone,
      'malformed-node',
      `protocol message ${node.attrs.id} lacks the edit attribute`,
    )
  }
}
