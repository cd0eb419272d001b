// Routes every <iq> a client sends to the handler for its xmlns; unknown ones get an empty result,
// as the many fire-and-forget iqs (passive, props, ping...) need nothing more.
import type { BinaryNode } from '@whiskeysockets/baileys'
import { handleAppStateIq } from '../app-state'
import type { AccountStats } from '../account'
import type { Connection } from '../connection'
import { iqResult } from '../node-utils'
import { onPairDeviceSign } from '../pairing'
import type { SimState } from '../state'
import { handleBlocklistIq } from './blocklist'
import { handleEncryptIq } from './encrypt'
import { handleGroupsIq } from './groups'
import { handleMdIq } from './md'
import { handleMexIq, handleNewsletterIq } from './mex'
import { handleBusinessIq, handlePictureIq, handleStatusIq } from './profile'
import { handlePrivacyIq } from './privacy'
import { handleUsyncIq } from './usync'

export const handleIq = (state: SimState, connection: Connection, node: BinaryNode): void => {
  const account = connection.account
  if (node.attrs.type === 'result' || node.attrs.type === 'error') {
    onPairDeviceSign(state, connection, node)
    return
  }
  if (account) {
    // Keep-alive pings come on Baileys' timer (every 15 s by default), not from anything the
    // client was asked to do: counting them made "asks WhatsApp nothing" checks depend on timing.
    if (node.attrs.xmlns !== 'w:p') countIq(account.stats, node)
    // The unresponsive fault: swallow iqs so the client's queries time out
    if (account.unresponsive) return
  }
  const answered = answer(state, connection, node)
  if (!(answered instanceof Promise)) {
    connection.sendNode(answered)
    return
  }
  answered.then(
    (result) => connection.sendNode(result),
    (error) => state.logger.warn(`iq ${node.attrs.xmlns} failed: ${(error as Error).stack}`),
  )
}

const countIq = (stats: AccountStats, node: BinaryNode): void => {
  stats.iqs++
  const child = Array.isArray(node.content) ? node.content[0]?.tag : undefined
  const key = child ? `${node.attrs.xmlns} ${child}` : `${node.attrs.xmlns}`
  stats.iqsBy[key] = (stats.iqsBy[key] ?? 0) + 1
}

const answer = (state: SimState, connection: Connection, node: BinaryNode): BinaryNode | Promise<BinaryNode> => {
  const account = connection.account
  if (node.attrs.xmlns === 'md') return handleMdIq(state, connection, node)
  if (!account) return iqResult(node)
  switch (node.attrs.xmlns) {
    case 'w:profile:picture':
      return handlePictureIq(state, account, node)
    case 'status':
      return handleStatusIq(state, account, node)
    case 'w:biz':
      return handleBusinessIq(state, account, node)
    case 'blocklist':
      return handleBlocklistIq(state, account, node)
    case 'w:sync:app:state':
      return handleAppStateIq(state, account, node)
    case 'encrypt':
      return handleEncryptIq(state, account, node)
    case 'usync':
      return handleUsyncIq(state, account, node)
    case 'w:g2':
      return handleGroupsIq(state, account, node)
    case 'privacy':
      return handlePrivacyIq(state, account, node)
    case 'w:mex':
      return handleMexIq(state, account, node)
    case 'newsletter':
      return handleNewsletterIq(state, account, node)
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
