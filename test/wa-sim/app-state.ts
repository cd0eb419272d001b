// App-state sync, the phone's side: the phone shares its app-state key with a newly linked device
// (a peer protocol message, as real phones do after linking), and keeps each collection's patches.
// A device's settings change (its push name: `pushNameSetting` in critical_block) arrives as a
// patch upload in `iq xmlns=w:sync:app:state`; the phone verifies it with the shared key (patch
// MAC, value MACs, and the snapshot MAC over its own LTHash) and applies it.
import { ALL_WA_PATCH_NAMES, proto } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { decodeSyncdPatch } from '@whiskeysockets/baileys/lib/Utils/chat-utils.js'
import { createHmac, hkdfSync, randomBytes } from 'node:crypto'
import type { Account } from './account'
import { applyLabelMutation, emptyLabelBook, type LabelBook } from './labels'
import { childOf, childrenOf, contentBytes, iqError, iqResult } from './node-utils'
import { sendPeerMessage } from './peer-message'
import { NAME_MAX_CHARS, profileOf } from './profiles'
import type { SimState } from './state'

interface Collection {
  version: number
  hash: Buffer
  indexValueMap: Record<string, { valueMac: Uint8Array }>
  /** Every patch in order, re-encoded with its version, for devices that sync later */
  patches: Buffer[]
}

/** One user's app state: the key its phone shares with its devices, and the collections. */
export interface AppState {
  key: { id: Buffer; data: Buffer; timestamp: number }
  collections: Map<string, Collection>
  /** Business labels, kept from the `regular` collection's label mutations (labels.ts) */
  labels: LabelBook
}

export const appStateOf = (state: SimState, phone: string): AppState => {
  let appState = state.appStates.get(phone)
  if (!appState) {
    appState = {
      key: { id: randomBytes(6), data: randomBytes(32), timestamp: Date.now() },
      collections: new Map(),
      labels: emptyLabelBook(),
    }
    state.appStates.set(phone, appState)
  }
  return appState
}

export const collectionOf = (appState: AppState, name: string): Collection => {
  let collection = appState.collections.get(name)
  if (!collection) {
    collection = { version: 0, hash: Buffer.alloc(128), indexValueMap: {}, patches: [] }
    appState.collections.set(name, collection)
  }
  return collection
}

/**
 * The phone shares its app-state key with the device once the device has uploaded its prekeys
 * (the phone needs one to start a Signal session with it). Kept in the device's offline queue
 * until it acknowledges it (a peer_msg receipt), like any message to it.
 */
export const shareAppStateKey = async (state: SimState, account: Account): Promise<void> => {
  if (account.appStateKeyShared) return
  account.appStateKeyShared = true
  const { key } = appStateOf(state, account.phone)
  const message: proto.IMessage = {
    protocolMessage: {
      type: proto.Message.ProtocolMessage.Type.APP_STATE_SYNC_KEY_SHARE,
      appStateSyncKeyShare: {
        keys: [
          {
            keyId: { keyId: key.id },
            keyData: {
              keyData: key.data,
              fingerprint: { rawId: 1, currentIndex: 0, deviceIndexes: [0, account.deviceId] },
              timestamp: key.timestamp,
            },
          },
        ],
      },
    },
  }
  await sendPeerMessage(state, account, message, 'app-state-key')
}

/** A request no WhatsApp client sends, or a patch the phone cannot verify: recorded and answered 400. */
class Refused extends Error {
  constructor(
    readonly kind: 'malformed-node' | 'invalid-app-state-patch',
    message: string,
  ) {
    super(message)
  }
}

/** `iq xmlns=w:sync:app:state type=set`: collections to sync from a version, and patch uploads. */
export const handleAppStateIq = async (state: SimState, account: Account, node: BinaryNode): Promise<BinaryNode> => {
  try {
    const sync = childOf(node, 'sync')
    if (node.attrs.type !== 'set' || !sync) throw new Refused('malformed-node', 'not a set with <sync>')
    const requested = childrenOf(sync).filter((child) => child.tag === 'collection')
    if (requested.length === 0) throw new Refused('malformed-node', '<sync> without collections')
    const appState = appStateOf(state, account.phone)
    const answers: BinaryNode[] = []
    for (const request of requested) answers.push(await answerCollection(state, account, appState, request))
    return iqResult(node, [{ tag: 'sync', attrs: {}, content: answers }])
  } catch (error) {
    if (error instanceof Conflict) return iqError(node, 409, 'conflict')
    if (!(error instanceof Refused)) throw error
    state.violations.record(account.phone, error.kind, `w:sync:app:state: ${error.message}`)
    return iqError(node, 400, 'bad-request')
  }
}

/** An upload built on another version than the server's: the device must sync first (WhatsApp: 409). */
class Conflict extends Error {}

const answerCollection = async (
  state: SimState,
  account: Account,
  appState: AppState,
  request: BinaryNode,
): Promise<BinaryNode> => {
  const name = request.attrs.name ?? ''
  const version = Number(request.attrs.version)
  if (!(ALL_WA_PATCH_NAMES as readonly string[]).includes(name))
    throw new Refused('malformed-node', `unknown collection "${name.slice(0, 40)}"`)
  if (!Number.isInteger(version) || version < 0)
    throw new Refused('malformed-node', `collection ${name} without a version`)
  const collection = collectionOf(appState, name)
  const upload = contentBytes(childOf(request, 'patch'))
  if (upload) {
    if (version !== collection.version) throw new Conflict()
    await applyPatch(state, account, appState, collection, name, upload)
    return { tag: 'collection', attrs: { name, version: String(collection.version) } }
  }
  if (version > collection.version)
    throw new Refused(
      'malformed-node',
      `collection ${name} asked from v${version}, the server has v${collection.version}`,
    )
  const newer = collection.patches.slice(version)
  return {
    tag: 'collection',
    attrs: { name, version: String(collection.version) },
    ...(newer.length
      ? {
          content: [
            { tag: 'patches', attrs: {}, content: newer.map((bytes) => ({ tag: 'patch', attrs: {}, content: bytes })) },
          ],
        }
      : {}),
  }
}

/** HKDF-SHA256 of the key into the five mutation keys (the app-state spec; computed here, not taken from Baileys). */
const mutationKeys = (keyData: Buffer) => {
  const expanded = Buffer.from(hkdfSync('sha256', keyData, Buffer.alloc(0), 'WhatsApp Mutation Keys', 160))
  return { snapshotMacKey: expanded.subarray(96, 128) }
}

const snapshotMac = (hash: Buffer, version: number, name: string, key: Buffer): Buffer => {
  const versionBytes = Buffer.alloc(8)
  versionBytes.writeBigUInt64BE(BigInt(version))
  return createHmac('sha256', key)
    .update(Buffer.concat([hash, versionBytes, Buffer.from(name, 'utf-8')]))
    .digest()
}

const applyPatch = async (
  state: SimState,
  account: Account,
  appState: AppState,
  collection: Collection,
  name: string,
  bytes: Buffer,
): Promise<void> => {
  let patch: proto.SyncdPatch
  try {
    patch = proto.SyncdPatch.decode(bytes)
  } catch {
    throw new Refused('invalid-app-state-patch', `${name}: the patch is no SyncdPatch`)
  }
  const keyId = Buffer.from(patch.keyId?.id ?? [])
  if (!keyId.equals(appState.key.id))
    throw new Refused(
      'invalid-app-state-patch',
      `${name}: encrypted with key ${keyId.toString('base64')}, never shared`,
    )
  const nextVersion = collection.version + 1
  patch.version = { version: nextVersion }
  const actions: { syncAction: proto.ISyncActionData; index: string[] }[] = []
  const getKey = async (id: string) =>
    id === appState.key.id.toString('base64') ? { keyData: appState.key.data } : undefined
  let decoded: { hash: Buffer; indexValueMap: Collection['indexValueMap'] }
  try {
    decoded = (await decodeSyncdPatch(
      patch,
      name as never,
      { version: collection.version, hash: collection.hash, indexValueMap: collection.indexValueMap },
      getKey as never,
      (mutation: { syncAction: proto.ISyncActionData; index: string[] }) => void actions.push(mutation),
      true,
    )) as never
  } catch (error) {
    throw new Refused('invalid-app-state-patch', `${name}: ${(error as Error).message}`)
  }
  const expected = snapshotMac(decoded.hash, nextVersion, name, mutationKeys(appState.key.data).snapshotMacKey)
  if (!expected.equals(Buffer.from(patch.snapshotMac ?? [])))
    throw new Refused('invalid-app-state-patch', `${name} v${nextVersion}: the snapshot MAC does not match the LTHash`)
  for (const mutation of actions)
    if (!applyLabelMutation(state, account, appState.labels, mutation)) applyAction(state, account, mutation.syncAction)
  Object.assign(collection, { version: nextVersion, hash: decoded.hash, indexValueMap: decoded.indexValueMap })
  collection.patches.push(Buffer.from(proto.SyncdPatch.encode(patch).finish()))
}

/** What the phone does with a verified mutation: the push name is the one setting it keeps. */
const applyAction = (state: SimState, account: Account, action: proto.ISyncActionData): void => {
  const name = action.value?.pushNameSetting?.name
  if (typeof name !== 'string') return
  if ([...name].length > NAME_MAX_CHARS || name.trim() === '') {
    state.violations.record(
      account.phone,
      'over-limit',
      `push name of ${[...name].length} characters: WhatsApp takes 1 to ${NAME_MAX_CHARS}`,
    )
    return
  }
  profileOf(state, account.phone).name = name
}
