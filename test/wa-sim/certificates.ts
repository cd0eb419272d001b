// Trust material: the Noise certificate chain (signed by the simulator's own root key, which the
// Baileys process installs as WA_CERT_DETAILS.PUBLIC_KEY) and an X.509 CA for the media host.
import { Curve, proto } from '@whiskeysockets/baileys'
import { generate } from 'selfsigned'

export interface CurveKeyPair {
  public: Uint8Array
  private: Uint8Array
}

const NOT_AFTER = 4102444800 // 2100-01-01: the chain never expires during tests

/** Builds intermediate <- root and leaf <- intermediate. Baileys checks issuerSerial === 0 on the intermediate. */
export const makeNoiseCertChain = (rootKey: CurveKeyPair, serverStaticPublic: Uint8Array): Uint8Array => {
  const intermediate = Curve.generateKeyPair()
  const Details = proto.CertChain.NoiseCertificate.Details
  const intermediateDetails = Details.encode({
    serial: 1,
    issuerSerial: 0,
    key: intermediate.public,
    notBefore: 0,
    notAfter: NOT_AFTER,
  }).finish()
  const leafDetails = Details.encode({
    serial: 2,
    issuerSerial: 1,
    key: serverStaticPublic,
    notBefore: 0,
    notAfter: NOT_AFTER,
  }).finish()
  return proto.CertChain.encode({
    intermediate: { details: intermediateDetails, signature: Curve.sign(rootKey.private, intermediateDetails) },
    leaf: { details: leafDetails, signature: Curve.sign(intermediate.private, leafDetails) },
  }).finish()
}

export interface MediaTlsMaterial {
  caPem: string
  keyPem: string
  certPem: string
}

/** A throwaway CA plus a leaf for 127.0.0.1, so clients trust the media host without disabling TLS checks. */
export const makeMediaTls = async (): Promise<MediaTlsMaterial> => {
  const notAfterDate = new Date(Date.now() + 7 * 24 * 3600 * 1000)
  const ca = await generate([{ name: 'commonName', value: 'wa-sim media CA' }], {
    algorithm: 'sha256',
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  })
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    algorithm: 'sha256',
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  })
  return { caPem: ca.cert, keyPem: leaf.private, certPem: leaf.cert }
}
