// xmlns=usync: contact (on WhatsApp or not), devices and lid for every user in one query.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { childOf, childrenOf, contentBytes, iqResult } from '../node-utils'
import type { SimState } from '../state'
import { statusNode } from './profile'

export const handleUsyncIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  account.stats.usyncQueries++
  const usync = childOf(node, 'usync')
  const protocols = childrenOf(childOf(usync, 'query')).map((protocol) => protocol.tag)
  const users = childrenOf(childOf(usync, 'list')).filter((user) => user.tag === 'user')
  const results = users.map((user) => userResult(state, account, user, protocols))
  return iqResult(node, [
    {
      tag: 'usync',
      attrs: { ...(usync?.attrs ?? {}) },
      content: [
        { tag: 'result', attrs: {} },
        { tag: 'list', attrs: {}, content: results },
      ],
    },
  ])
}

const userResult = (state: SimState, asker: Account, user: BinaryNode, protocols: string[]): BinaryNode => {
  const contactQuery = contentBytes(childOf(user, 'contact'))?.toString('utf-8')
  // A number asked in another form than the contact's own (Brazil's ninth digit) answers as the contact's jid
  const asked = (contactQuery ?? '').replace(/\D/g, '')
  const jid = user.attrs.jid ?? `${state.numberAliases.get(asked) ?? asked}@s.whatsapp.net`
  const [userPart = '', server = ''] = jid.split('@')
  const { account, contact } = state.lookupUser(userPart.split(':')[0] ?? '', server)
  const known = account !== undefined || contact !== undefined
  const lid = account?.lid ?? contact?.lid
  const content: BinaryNode[] = []
  for (const protocol of protocols) {
    // WhatsApp echoes the number as asked, which is how a client matches an answer given in another form
    if (protocol === 'contact')
      content.push({
        tag: 'contact',
        attrs: { type: known ? 'in' : 'out' },
        ...(contactQuery ? { content: Buffer.from(contactQuery) } : {}),
      })
    if (protocol === 'devices') {
      const devices: BinaryNode[] = known ? [{ tag: 'device', attrs: { id: '0' } }] : []
      if (account?.linked)
        devices.push({ tag: 'device', attrs: { id: String(account.deviceId), 'key-index': String(account.deviceId) } })
      content.push({ tag: 'devices', attrs: {}, content: [{ tag: 'device-list', attrs: {}, content: devices }] })
    }
    // v7 only builds Signal sessions with LID-addressed devices, so every known user has a LID
    if (protocol === 'lid' && known && server !== 'lid') content.push({ tag: 'lid', attrs: { val: `${lid}@lid` } })
    // The about text, or code 401 when its owner hides it from the asker
    if (protocol === 'status') content.push(statusNode(state, asker.phone, account?.phone ?? contact?.phone))
  }
  return { tag: 'user', attrs: { jid }, content }
}
