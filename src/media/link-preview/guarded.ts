import type { HostResolver } from '../../net/host-resolver'
import { createSafeFetcher } from '../../net/safe-fetcher'
import { createLinkPreviewer, type LimitedFetch, type LinkPreviewer } from './previewer'

/**
 * Link previews over the one guarded fetcher (address-pinned, private addresses refused unless
 * the operator allows them): the page read up to its cap and cut there, the picture refused
 * past its cap.
 */
export function createGuardedLinkPreviewer(options: {
  allowPrivateAddresses: boolean
  /** Exact addresses reachable although private (an embedding app's own site, a test's server). */
  allowAddresses?: readonly string[]
  resolver?: HostResolver
  thumbnail(bytes: Uint8Array): Promise<Uint8Array>
}): LinkPreviewer {
  const fetchWith =
    (overLimit: 'refuse' | 'truncate'): LimitedFetch =>
    (url, limits) =>
      createSafeFetcher({
        allowPrivateAddresses: options.allowPrivateAddresses,
        allowAddresses: options.allowAddresses,
        resolver: options.resolver,
        maxBytes: limits.maxBytes,
        timeoutMs: limits.timeoutMs,
        overLimit,
      }).fetch(url)
  return createLinkPreviewer({
    fetchPage: fetchWith('truncate'),
    fetchImage: fetchWith('refuse'),
    thumbnail: options.thumbnail,
  })
}
