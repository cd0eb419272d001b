import { createHash } from 'node:crypto'

/**
 * The one SHA-256 of the gateway (API keys, the deployment key, migration checksums), so
 * every stored or compared digest is computed the same way: UTF-8 in, raw bytes or hex out.
 */
export const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest()

export const sha256Hex = (value: string): string => sha256(value).toString('hex')
