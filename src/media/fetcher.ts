import type { GatewayConfig } from '../config'
import { createSafeFetcher, type FetchedBody } from '../net/safe-fetcher'

/**
 * Fetches a client-supplied media URL within the operator's limits. On Node and Bun it is
 * the guarded, address-pinned fetcher; a Workers build can provide one on plain fetch.
 */
export interface MediaFetcher {
  fetch(url: string): Promise<FetchedBody>
}

export type { FetchedBody }

export function createMediaFetcher(config: Pick<GatewayConfig, 'allowPrivateAddresses' | 'media'>): MediaFetcher {
  return createSafeFetcher({
    allowPrivateAddresses: config.allowPrivateAddresses,
    maxBytes: config.media.maxBytes,
    timeoutMs: config.media.timeoutMs,
  })
}
