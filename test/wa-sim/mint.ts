// Linked devices made without a QR, for benches that need thousands of sessions: the simulator
// does what a phone scan and the client's first login would leave behind (the account with its
// signed device identity, the client's creds, a few uploaded pre-keys, the shared app-state key)
// and hands the client side over as Baileys' own auth state. The gateway then logs each one in
// through its real restore path; nothing else about the account differs from a scanned one.
import {
  BufferJSON,
  Curve,
  generateSignalPubKey,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
} from '@whiskeysockets/baileys'
import { Account } from './account'
import { appStateOf } from './app-state'
import { unixNow } from './node-utils'
import type { SimState } from './state'

const ADV_ACCOUNT_SIG_PREFIX = Buffer.from([6, 0])
const ADV_DEVICE_SIG_PREFIX = Buffer.from([6, 1])
/**
 * More than Baileys' MIN_PREKEY_COUNT (5): a login that finds at most that many on the server
 * uploads a fresh batch, and minting exists to spare the benches the 812-key first upload.
 */
export const MINTED_PRE_KEYS = 10

/** One minted device: its number and LID, and its auth state as Baileys serializes it (BufferJSON). */
export interface MintedDevice {
  phone: string
  lid: string
  /** `JSON.stringify(creds, BufferJSON.replacer)` */
  creds: string
  /** Signal keys by category and id, each `JSON.stringify(value, BufferJSON.replacer)` */
  keys: Record<string, Record<string, string>>
}

const serialize = (value: unknown) => JSON.stringify(value, BufferJSON.replacer)

/** A fresh account linked to a device whose creds are returned, as if scanned and logged in once. */
export const mintLinkedDevice = (state: SimState): MintedDevice => {
  const creds: AuthenticationCreds = initAuthCreds()
  const phone = state.allocatePhone()
  const lid = state.allocateLid()
  const deviceId = 1
  const accountKey = Curve.generateKeyPair()
  const identity = creds.signedIdentityKey
  const account = new Account(phone, lid, deviceId, creds.noiseKey.public, identity.public, accountKey)

  // pair-success's signed device identity, and the client's own signature over it (pair-device-sign)
  const details = proto.ADVDeviceIdentity.encode({
    rawId: Math.floor(Math.random() * 2 ** 31),
    timestamp: Number(unixNow()),
    keyIndex: deviceId,
  }).finish()
  const accountSignature = Curve.sign(
    accountKey.private,
    Buffer.concat([ADV_ACCOUNT_SIG_PREFIX, details, identity.public]),
  )
  const deviceSignature = Curve.sign(
    identity.private,
    Buffer.concat([ADV_DEVICE_SIG_PREFIX, details, identity.public, accountKey.public]),
  )
  const deviceLid = `${lid}:${deviceId}@lid`
  creds.me = { id: `${phone}:${deviceId}@s.whatsapp.net`, lid: deviceLid }
  creds.account = { details, accountSignatureKey: accountKey.public, accountSignature, deviceSignature }
  creds.signalIdentities = [
    { identifier: { name: deviceLid, deviceId: 0 }, identifierKey: generateSignalPubKey(accountKey.public) },
  ]
  creds.platform = 'android'

  // The pre-keys its first login uploaded: the server keeps the public halves for contacts
  const preKeys: Record<string, string> = {}
  const uploaded: { id: number; public: Buffer }[] = []
  for (let id = 1; id <= MINTED_PRE_KEYS; id++) {
    const pair = Curve.generateKeyPair()
    preKeys[id] = serialize(pair)
    uploaded.push({ id, public: Buffer.from(pair.public) })
  }
  creds.nextPreKeyId = MINTED_PRE_KEYS + 1
  creds.firstUnuploadedPreKeyId = MINTED_PRE_KEYS + 1
  account.uploadedPreKeyCount = MINTED_PRE_KEYS
  account.bundle = {
    registrationId: creds.registrationId,
    identity: Buffer.from(identity.public),
    signedPreKey: {
      id: creds.signedPreKey.keyId,
      public: Buffer.from(creds.signedPreKey.keyPair.public),
      signature: Buffer.from(creds.signedPreKey.signature),
    },
    preKeys: uploaded,
  }

  // The app-state key the phone shares after that first upload
  const { key } = appStateOf(state, phone)
  account.appStateKeyShared = true
  account.historySyncStarted = true
  const keyId = key.id.toString('base64')
  creds.myAppStateKeyId = keyId
  const keyData = proto.Message.AppStateSyncKeyData.create({
    keyData: key.data,
    fingerprint: { rawId: 1, currentIndex: 0, deviceIndexes: [0, deviceId] },
    timestamp: key.timestamp,
  })

  state.accounts.set(phone, account)
  return {
    phone,
    lid,
    creds: serialize(creds),
    keys: { 'pre-key': preKeys, 'app-state-sync-key': { [keyId]: serialize(keyData) } },
  }
}
