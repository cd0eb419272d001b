// A contact's message into a group, as the server hands it to one account's device: the contact's
// own sender key goes to that device once (a Signal pkmsg/msg carrying the distribution message),
// then every message is an skmsg under that key, from the group with the contact as participant.
// A status (story) travels the same way, from status@broadcast to the contacts it is shown to.
import { proto } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import { accountPeerName } from './client-messages'
import type { Contact } from './contact'
import type { BuiltContent } from './contact-content'
import { SimulatorError } from './errors'
import { STATUS_JID, unixNow } from './node-utils'
import type { SimState } from './state'
import { pushNameOf } from './profiles'

export const deliverToGroup = async (
  state: SimState,
  account: Account,
  contact: Contact,
  groupJid: string,
  built: BuiltContent,
  id: string,
  extraAttrs: Record<string, string>,
): Promise<void> => {
  if (groupJid !== STATUS_JID) {
    const group = state.groups.get(groupJid)
    if (!group) throw new SimulatorError('unknown_group', `no group ${groupJid}`, 404)
    for (const phone of [contact.phone, account.phone]) {
      if (!group.participants.includes(phone))
        throw new SimulatorError('not_a_participant', `${phone} is not in ${groupJid}`, 409)
    }
  }
  const connection = state.requireLiveConnection(account)
  const encs: BinaryNode[] = []
  const holder = `${groupJid} ${accountPeerName(account)}`
  if (!contact.ownSenderKeyHolders.has(holder)) {
    const distribution = proto.Message.fromObject({
      senderKeyDistributionMessage: {
        groupId: groupJid,
        axolotlSenderKeyDistributionMessage: await contact.ownSenderKeyDistribution(groupJid),
      },
    })
    const { type, ciphertext } = await contact.device.encrypt(
      accountPeerName(account),
      () => account.takeBundle(),
      distribution,
    )
    encs.push({ tag: 'enc', attrs: { v: '2', type }, content: ciphertext })
  }
  const skmsg = await contact.encryptGroup(groupJid, built.message)
  encs.push({
    tag: 'enc',
    attrs: { v: '2', type: 'skmsg', ...(built.mediatype ? { mediatype: built.mediatype } : {}) },
    content: Buffer.from(skmsg),
  })
  connection.sendNode({
    tag: 'message',
    attrs: {
      from: groupJid,
      participant: contact.lidJid,
      participant_pn: contact.pnJid,
      ...(groupJid === STATUS_JID ? {} : { addressing_mode: 'lid' }),
      type: built.type,
      id,
      t: unixNow(),
      notify: pushNameOf(state, contact.phone, `Contact ${contact.phone}`),
      ...extraAttrs,
    },
    content: encs,
  })
  contact.ownSenderKeyHolders.add(holder)
}
