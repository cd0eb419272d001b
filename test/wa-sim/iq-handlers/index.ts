// Routes every <iq> a client sends to the handler for its xmlns; unknown ones get an empty result,
// as the many fire-and-forget iqs (passive, props, privacy, ping...) need nothing more.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Connection } from '../connection'
import { iqResult } from '../node-utils'
import { onPairDeviceSign } from '../pairing'
import type { SimState } from '../state'
import { handleEncryptIq } from './encrypt'
import { handleGroupsIq } from './groups'
import { handleMdIq } from './md'
import { handleUsyncIq } from './usync'

export const handleIq = (state: SimState, connection: Connection, node: BinaryNode): void => {
  const account = connection.account
  if (node.attrs.type === 'result' || node.attrs.type === 'error') {
    onPairDeviceSign(state, connection, node)
    return
  }
  if (account) {
    account.stats.iqs++
    // The unresponsive fault: swallow iqs so the client's queries time out
    if (account.unresponsive) return
  }
  connection.sendNode(answer(state, connection, node))
}

const answer = (state: SimState, connection: Connection, node: BinaryNode): BinaryNode => {
  const account = connection.account
  if (node.attrs.xmlns === 'md') return handleMdIq(state, connection, node)
  if (!account) return iqResult(node)
  switch (node.attrs.xmlns) {
    case 'encrypt':
      return handleEncryptIq(state, account, node)
    case 'usync':
      return handleUsyncIq(state, account, node)
    case 'w:g2':
      return handleGroupsIq(state, account, node)
    case 'privacy':
      if (node.attrs.type !== 'get') return iqResult(node)
      // Baileys asks once per connection and sends read-self receipts unless readreceipts is "all"
      return iqResult(node, [
        {
          tag: 'privacy',
          attrs: {},
          content: [
            { tag: 'category', attrs: { name: 'readreceipts', value: account.readReceipts } },
            { tag: 'category', attrs: { name: 'last', value: 'all' } },
            { tag: 'category', attrs: { name: 'online', value: 'all' } },
          ],
        },
      ])
    case 'w:m':
      return iqResult(node, [
        {
          tag: 'media_conn',
          attrs: { auth: 'sim-auth', ttl: '3600' },
          content: [{ tag: 'host', attrs: { hostname: state.media.hostname, maxContentLengthBytes: '104857600' } }],
        },
      ])
    default:
      return iqResult(node)
  }
}
