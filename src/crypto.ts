import * as nodeCrypto from 'node:crypto'

/**
 * The one SHA-256 of the gateway (API keys, the deployment key, migration checksums), so
 * every stored or compared digest is computed the same way: UTF-8 in, raw bytes or hex out.
 */
export const sha256 = (value: string): Buffer => nodeCrypto.createHash('sha256').update(value, 'utf8').digest()

/**
 * Node ≥ 20.12's one-shot `crypto.hash` where the runtime has it: a sixth of createHash's
 * cost for a short key, and every authenticated request hashes its key once.
 */
const oneShotHash = typeof nodeCrypto.hash === 'function' ? nodeCrypto.hash : undefined

export const sha256Hex = (value: string): string =>
  oneShotHash ? oneShotHash('sha256', value, 'hex') : sha256(value).toString('hex')
