// The phone side of linking a companion device: QR scan and pairing code, then pair-success,
// the client's pair-device-sign (verified strictly) and the 515 restart.
import {
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  Curve,
  derivePairingCodeKey,
  hkdf,
  hmacSign,
  proto,
} from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { randomBytes } from 'node:crypto'
import { Account, type HistoryRequest } from './account'
import type { CurveKeyPair } from './certificates'
import type { Connection } from './connection'
import { childOf, contentBytes, iqResult, S_WHATSAPP_NET, serverMessageId, unixNow } from './node-utils'
import type { SimState } from './state'
import { SimulatorError } from './errors'

const ADV_ACCOUNT_SIG_PREFIX = Buffer.from([6, 0])
const ADV_DEVICE_SIG_PREFIX = Buffer.from([6, 1])

export interface LinkedIdentity {
  phone: string
  lid: string
}

/**
 * What a registering companion asks of history, from its pairing properties (DeviceProps):
 * `requireFullSync` and `historySyncConfig.fullSyncDaysLimit` (0 or absent: no limit).
 */
export const historyRequestOf = (payload: proto.IClientPayload): HistoryRequest => {
  const encoded = payload.devicePairingData?.deviceProps
  if (!encoded?.length) return { requireFullSync: false }
  const props = proto.DeviceProps.decode(encoded)
  const limit = props.historySyncConfig?.fullSyncDaysLimit
  return { requireFullSync: props.requireFullSync === true, ...(limit ? { fullSyncDaysLimit: limit } : {}) }
}

/** After a registration handshake: offer QR refs; the client shows one QR per ref. */
export const offerQrRefs = (state: SimState, connection: Connection, history: HistoryRequest): void => {
  const qrRefs = Array.from({ length: state.options.qrRefs }, () => `2@${randomBytes(18).toString('base64')}`)
  connection.registration = { qrRefs, history }
  connection.sendNode({
    tag: 'iq',
    attrs: { from: S_WHATSAPP_NET, type: 'set', id: serverMessageId('pd'), xmlns: 'md' },
    content: [
      {
        tag: 'pair-device',
        attrs: {},
        content: qrRefs.map((ref) => ({ tag: 'ref', attrs: {}, content: Buffer.from(ref) })),
      },
    ],
  })
}

/** The simulated phone scans a QR (`ref,noiseKey,identityKey,advSecret,platform`). */
export const scanQr = (state: SimState, qr: string, phone?: string, options: ScanOptions = {}): LinkedIdentity => {
  const fields = (qr.includes('#') ? qr.slice(qr.indexOf('#') + 1) : qr).split(',')
  const [ref, noiseB64, identityB64, advB64] = fields
  if (!ref || !noiseB64 || !identityB64 || !advB64)
    throw new SimulatorError('invalid_qr', 'QR payload must be ref,noiseKey,identityKey,advSecret,...')
  const noisePublic = Buffer.from(noiseB64, 'base64')
  const connection = [...state.connections].find(
    (c) => !c.closed && c.registration && (c.registration.qrRefs.includes(ref) || c.clientStatic.equals(noisePublic)),
  )
  if (!connection) throw new SimulatorError('no_pending_pairing', 'no connected client is showing this QR')
  return linkDevice(state, connection, {
    phone: phone ?? state.allocatePhone(),
    identityPublic: Buffer.from(identityB64, 'base64'),
    advSecret: Buffer.from(advB64, 'base64'),
    accountKey: Curve.generateKeyPair(),
    businessName: options.businessName,
  })
}

export interface ScanOptions {
  /**
   * Link a business account: pair-success carries its name (<biz name>), which is how a linked
   * device learns a business's name. A personal account's push name comes by app-state sync,
   * which the simulator does not do: such a device knows no name.
   */
  businessName?: string
}

interface LinkRequest {
  businessName?: string
  phone: string
  identityPublic: Buffer
  advSecret: Buffer
  accountKey: CurveKeyPair
}

/** Creates the account (pending until pair-device-sign) and sends the signed device identity. */
const linkDevice = (state: SimState, connection: Connection, request: LinkRequest): LinkedIdentity => {
  const previous = state.accounts.get(request.phone)
  const lid = previous?.lid ?? state.allocateLid()
  const deviceId = (previous?.deviceId ?? 0) + 1
  const account = new Account(
    request.phone,
    lid,
    deviceId,
    connection.clientStatic,
    request.identityPublic,
    request.accountKey,
  )
  const details = proto.ADVDeviceIdentity.encode({
    rawId: Math.floor(Math.random() * 2 ** 31),
    timestamp: Number(unixNow()),
    keyIndex: deviceId,
  }).finish()
  const accountSignature = Curve.sign(
    request.accountKey.private,
    Buffer.concat([ADV_ACCOUNT_SIG_PREFIX, details, request.identityPublic]),
  )
  const signed = proto.ADVSignedDeviceIdentity.encode({
    details,
    accountSignatureKey: request.accountKey.public,
    accountSignature,
  }).finish()
  const wrapped = proto.ADVSignedDeviceIdentityHMAC.encode({
    details: signed,
    hmac: hmacSign(signed, request.advSecret),
  }).finish()
  account.historyRequest = { ...(connection.registration?.history ?? { requireFullSync: false }) }
  const pairSuccessId = serverMessageId('ps')
  connection.registration = {
    ...(connection.registration ?? { qrRefs: [], history: { requireFullSync: false } }),
    pendingAccount: account,
    pairSuccessId,
  }
  connection.sendNode({
    tag: 'iq',
    attrs: { from: S_WHATSAPP_NET, type: 'set', id: pairSuccessId, xmlns: 'md', t: unixNow() },
    content: [
      {
        tag: 'pair-success',
        attrs: {},
        content: [
          { tag: 'device-identity', attrs: {}, content: wrapped },
          { tag: 'platform', attrs: { name: 'android' } },
          ...(request.businessName ? [{ tag: 'biz', attrs: { name: request.businessName } }] : []),
          {
            tag: 'device',
            attrs: { jid: `${request.phone}:${deviceId}@s.whatsapp.net`, lid: `${lid}:${deviceId}@lid` },
          },
        ],
      },
    ],
  })
  return { phone: request.phone, lid }
}

/** The client's answer to pair-success: verify its device signature, store the account, restart it. */
export const onPairDeviceSign = (state: SimState, connection: Connection, node: BinaryNode): void => {
  const account = connection.registration?.pendingAccount
  if (!account || node.attrs.id !== connection.registration?.pairSuccessId) return
  const identityBytes = contentBytes(childOf(childOf(node, 'pair-device-sign'), 'device-identity'))
  const valid = identityBytes !== undefined && verifyDeviceSignature(account, identityBytes)
  if (!valid) {
    state.violations.record(
      account.phone,
      'invalid-device-signature',
      'pair-device-sign missing or not signed by the client identity key',
    )
    connection.sendNode({ tag: 'failure', attrs: { reason: '401', location: 'sim' } })
    return
  }
  const previous = state.accounts.get(account.phone)
  if (previous) previous.linked = false
  state.accounts.set(account.phone, account)
  connection.registration = undefined
  // The real server kicks a freshly paired client so it reconnects and logs in
  setTimeout(() => connection.sendNode({ tag: 'stream:error', attrs: { code: '515' } }), 20)
}

const verifyDeviceSignature = (account: Account, encoded: Buffer): boolean => {
  const identity = proto.ADVSignedDeviceIdentity.decode(encoded)
  if (!identity.details || !identity.deviceSignature) return false
  const message = Buffer.concat([
    ADV_DEVICE_SIG_PREFIX,
    identity.details,
    account.identityPublic,
    account.accountKey.public,
  ])
  try {
    return Curve.verify(account.identityPublic, message, identity.deviceSignature)
  } catch {
    return false
  }
}

/** `link_code_companion_reg stage=companion_hello`: the client asked for a pairing code. */
export const onCompanionHello = (connection: Connection, node: BinaryNode, reg: BinaryNode): BinaryNode => {
  const phone = (reg.attrs.jid ?? '').split('@')[0]?.split(':')[0] ?? ''
  const wrapped = contentBytes(childOf(reg, 'link_code_pairing_wrapped_companion_ephemeral_pub'))
  const ref = randomBytes(16).toString('hex')
  if (wrapped) {
    connection.registration = {
      ...(connection.registration ?? { qrRefs: [], history: { requireFullSync: false } }),
      pairingCode: { phone, wrappedCompanionEphemeral: wrapped, ref },
    }
  }
  return iqResult(node, [
    {
      tag: 'link_code_companion_reg',
      attrs: {},
      content: [{ tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(ref) }],
    },
  ])
}

/** The phone user typed `code`: unwrap the companion key and notify the client, as a phone does. */
export const enterPairingCode = async (state: SimState, phone: string, code: string): Promise<void> => {
  const connection = [...state.connections].find((c) => !c.closed && c.registration?.pairingCode?.phone === phone)
  const request = connection?.registration?.pairingCode
  if (!connection || !request)
    throw new SimulatorError('no_pending_pairing', `no client asked for a pairing code for ${phone}`)
  const wrapped = request.wrappedCompanionEphemeral
  const companionKey = await derivePairingCodeKey(code.replace(/-/g, '').toUpperCase(), wrapped.subarray(0, 32))
  request.companionEphemeralPublic = aesDecryptCTR(wrapped.subarray(48, 80), companionKey, wrapped.subarray(32, 48))
  request.primaryEphemeral = Curve.generateKeyPair()
  request.primaryIdentity = Curve.generateKeyPair()
  const salt = randomBytes(32)
  const iv = randomBytes(16)
  const primaryKey = await derivePairingCodeKey(code.replace(/-/g, '').toUpperCase(), salt)
  const wrappedPrimary = Buffer.concat([salt, iv, aesEncryptCTR(request.primaryEphemeral.public, primaryKey, iv)])
  const finished = new Promise<void>((resolve, reject) => (request.settle = { resolve, reject }))
  connection.sendNode({
    tag: 'notification',
    attrs: { from: S_WHATSAPP_NET, type: 'link_code_companion_reg', id: serverMessageId('lc'), t: unixNow() },
    content: [
      {
        tag: 'link_code_companion_reg',
        attrs: {},
        content: [
          { tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(request.ref) },
          { tag: 'primary_identity_pub', attrs: {}, content: request.primaryIdentity.public },
          { tag: 'link_code_pairing_wrapped_primary_ephemeral_pub', attrs: {}, content: wrappedPrimary },
        ],
      },
    ],
  })
  await finished
}

/** `companion_finish`: derive the ADV secret the client derived, then pair exactly like a QR scan. */
export const onCompanionFinish = (
  state: SimState,
  connection: Connection,
  node: BinaryNode,
  reg: BinaryNode,
): BinaryNode => {
  const request = connection.registration?.pairingCode
  const bundle = contentBytes(childOf(reg, 'link_code_pairing_wrapped_key_bundle'))
  const companionIdentity = contentBytes(childOf(reg, 'companion_identity_public'))
  if (
    !request?.primaryEphemeral ||
    !request.primaryIdentity ||
    !request.companionEphemeralPublic ||
    !bundle ||
    !companionIdentity
  ) {
    return iqResult(node)
  }
  try {
    const companionShared = Curve.sharedKey(request.primaryEphemeral.private, request.companionEphemeralPublic)
    const bundleKey = hkdf(companionShared, 32, {
      salt: bundle.subarray(0, 32),
      info: 'link_code_pairing_key_bundle_encryption_key',
    })
    const plain = aesDecryptGCM(bundle.subarray(44), bundleKey, bundle.subarray(32, 44), Buffer.alloc(0))
    const random = plain.subarray(64, 96)
    const identityShared = Curve.sharedKey(request.primaryIdentity.private, companionIdentity)
    const advSecret = hkdf(Buffer.concat([companionShared, identityShared, random]), 32, { info: 'adv_secret' })
    setTimeout(() => {
      linkDevice(state, connection, {
        phone: request.phone,
        identityPublic: companionIdentity,
        advSecret: Buffer.from(advSecret),
        accountKey: request.primaryIdentity!,
      })
      request.settle?.resolve()
    }, 10)
  } catch {
    // A wrong code unwraps a garbage key, so the bundle does not authenticate: the phone refuses
    request.settle?.reject(
      new SimulatorError('wrong_pairing_code', 'the pairing code does not match the one the client shows'),
    )
  }
  return iqResult(node)
}
