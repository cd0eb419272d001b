// xmlns=encrypt: prekey upload/count/digest from the client, and prekey bundles for its peers.
import { encodeBigEndian } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { shareAppStateKey } from '../app-state'
import { sendHistoryAtLinking } from '../history-send'
import { childOf, childrenOf, contentBytes, iqResult } from '../node-utils'
import type { PreKeyBundle } from '../signal-device'
import type { SimState } from '../state'

const readUInt = (node: BinaryNode | undefined): number => {
  const bytes = contentBytes(node)
  return bytes ? bytes.readUIntBE(0, bytes.length) : 0
}

export const handleEncryptIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  const first = childrenOf(node)[0]
  if (first?.tag === 'count')
    return iqResult(node, [{ tag: 'count', attrs: { value: String(account.uploadedPreKeyCount) } }])
  if (first?.tag === 'digest') return iqResult(node, [{ tag: 'digest', attrs: {} }])
  if (node.attrs.type === 'set' && childOf(node, 'list')) {
    storeUploadedBundle(account, node)
    // The phone can reach the new device now: it shares its app-state key, then its history, once
    if (!account.appStateKeyShared)
      setTimeout(
        () =>
          void shareAppStateKey(state, account)
            .then(() => sendHistoryAtLinking(state, account))
            .catch((e) => state.logger.warn(`key share or history: ${e}`)),
        0,
      )
    return iqResult(node)
  }
  if (first?.tag === 'key') {
    const users = childrenOf(first).filter((child) => child.tag === 'user')
    return iqResult(node, [
      { tag: 'list', attrs: {}, content: users.map((user) => bundleNode(state, user.attrs.jid ?? '')) },
    ])
  }
  return iqResult(node)
}

const storeUploadedBundle = (account: Account, node: BinaryNode): void => {
  const signedPreKey = childOf(node, 'skey')
  const preKeys = childrenOf(childOf(node, 'list')).map((key) => ({
    id: readUInt(childOf(key, 'id')),
    public: contentBytes(childOf(key, 'value')) ?? Buffer.alloc(0),
  }))
  account.uploadedPreKeyCount += preKeys.length
  account.bundle = {
    registrationId: readUInt(childOf(node, 'registration')),
    identity: contentBytes(childOf(node, 'identity')) ?? Buffer.alloc(0),
    signedPreKey: {
      id: readUInt(childOf(signedPreKey, 'id')),
      public: contentBytes(childOf(signedPreKey, 'value')) ?? Buffer.alloc(0),
      signature: contentBytes(childOf(signedPreKey, 'signature')) ?? Buffer.alloc(0),
    },
    // Keep earlier keys too: a contact may still start a session with one of them
    preKeys: [...(account.bundle?.preKeys ?? []), ...preKeys],
  }
}

/** Bundles exist for contacts (device 0), an account's phone (device 0) and its companion device. */
const bundleFor = (state: SimState, jid: string): PreKeyBundle | undefined => {
  const [userPart, server = ''] = jid.split('@')
  const [user = '', device = '0'] = (userPart ?? '').split(':')
  const { account, contact } = state.lookupUser(user, server)
  if (contact && device === '0') return contact.device.bundle
  if (account && device === '0') return account.primaryDevice.bundle
  if (account && Number(device) === account.deviceId && account.bundle) return account.takeBundle()
  return undefined
}

const bundleNode = (state: SimState, jid: string): BinaryNode => {
  const bundle = bundleFor(state, jid)
  if (!bundle)
    return { tag: 'user', attrs: { jid }, content: [{ tag: 'error', attrs: { code: '404', text: 'item-not-found' } }] }
  const preKey = bundle.preKeys[0]
  return {
    tag: 'user',
    attrs: { jid },
    content: [
      { tag: 'registration', attrs: {}, content: encodeBigEndian(bundle.registrationId) },
      { tag: 'type', attrs: {}, content: Buffer.from([5]) },
      { tag: 'identity', attrs: {}, content: bundle.identity },
      {
        tag: 'skey',
        attrs: {},
        content: [
          { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.signedPreKey.id, 3) },
          { tag: 'value', attrs: {}, content: bundle.signedPreKey.public },
          { tag: 'signature', attrs: {}, content: bundle.signedPreKey.signature },
        ],
      },
      ...(preKey
        ? [
            {
              tag: 'key',
              attrs: {},
              content: [
                { tag: 'id', attrs: {}, content: encodeBigEndian(preKey.id, 3) },
                { tag: 'value', attrs: {}, content: preKey.public },
              ],
            },
          ]
        : []),
    ],
  }
}
