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
export const newEventId = () => `evt_${randomBase32(24)}`
export const newDeliveryId = () => `dlv_${randomBase32(24)}`
export const newWebhookId = () => `whk_${randomBase32(24)}`
