import { monotonicFactory } from 'ulid'
import { pooledRandomBytes } from './perf/random-pool'

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/** Random lowercase base32 (5 bits a character): URL-safe and unguessable. */
export function randomBase32(length: number): string {
  const bytes = pooledRandomBytes(length)
  let out = ''
  for (let i = 0; i < length; i++) out += BASE32[bytes[i]! & 31]
  return out
}

export const newSessionId = () => `ses_${randomBase32(24)}`
export const newWorkspaceId = () => `wsp_${randomBase32(20)}`
export const newApiKeyId = () => `key_${randomBase32(20)}`
export const newWebhookId = () => `whk_${randomBase32(24)}`

/**
 * An optimisation (bench: inbound disk writes a message, a burst's ~52 → ~40 KiB).
 *
 * The rows written for every message (its event, its deliveries) take ULIDs: time first, then
 * random, and increasing within a millisecond. Their indexes then grow at one end, where a
 * burst's rows share a page, instead of taking a random page each, written to the WAL at every
 * commit. The random part comes from the pool like the other ids'.
 */
const timeOrdered = monotonicFactory(() => pooledRandomBytes(1)[0]! / 256)
export const newEventId = () => `evt_${timeOrdered().toLowerCase()}`
export const newDeliveryId = () => `dlv_${timeOrdered().toLowerCase()}`
