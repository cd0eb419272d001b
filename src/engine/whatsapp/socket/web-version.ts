import type { WaVersion } from '../../../config'
import type { Logger } from '../../../logger'
import type { WebVersionInfo } from '../port'

/** The version Baileys 7.0.0-rc14 ships with, known without loading Baileys (a unit test keeps it equal). */
export const BUNDLED_WA_VERSION: WaVersion = [2, 3000, 1043857760]

/** Asks WhatsApp which web version is current; undefined when it could not tell. */
export type WaVersionFetcher = (signal: AbortSignal) => Promise<WaVersion | undefined>

/** Baileys' fetchLatestWaWebVersion (GET web.whatsapp.com/sw.js): loads Baileys, so only called when needed. */
export const fetchFromWhatsApp: WaVersionFetcher = async (signal) => {
  const { fetchLatestWaWebVersion } = await import('@whiskeysockets/baileys')
  const result = await fetchLatestWaWebVersion({ signal })
  return result.isLatest ? (result.version as WaVersion) : undefined
}

/** Refreshes after a 405 happen at most this often: many sessions refused at once ask once. */
const OUTDATED_REFRESH_INTERVAL_MS = 30_000

export interface WebVersionKeeper {
  /** The version a new socket announces. */
  current(): WaVersion
  info(): WebVersionInfo
  /** Learns the current version (when Baileys loads); never rejects: a failure keeps the version in use. */
  refresh(): Promise<void>
  /** WhatsApp refused `refused` as outdated (405): learn the current one, unless that already happened. */
  refreshAfterOutdated(refused: WaVersion): Promise<void>
  /** Resolves once no refresh is under way (a reconnect waits for it). */
  settled(): Promise<void>
  /** Whether refresh() asks WhatsApp (not pinned, a fetcher given). */
  readonly fetches: boolean
}

export const formatWaVersion = (version: WaVersion) => version.join('.')

/**
 * The WhatsApp Web version of one gateway. Pinned (WA_VERSION): that one, nothing fetched.
 * Otherwise the bundled one until a fetch (with a timeout) says otherwise; no fetcher (the
 * simulator, or an embedding that turned it off): the bundled one for good.
 */
export function createWebVersionKeeper(options: {
  pinned?: WaVersion
  fetcher?: WaVersionFetcher
  timeoutMs: number
  logger: Logger
}): WebVersionKeeper {
  const { pinned, fetcher, timeoutMs, logger } = options
  let version: WaVersion = pinned ?? BUNDLED_WA_VERSION
  let source: WebVersionInfo['source'] = pinned ? 'pinned' : 'bundled'
  let inFlight: Promise<void> | undefined
  let lastOutdatedRefresh = Number.NEGATIVE_INFINITY

  const fetchNow = (why: string): Promise<void> => {
    if (!fetcher || pinned) return Promise.resolve()
    inFlight ??= (async () => {
      const signal = AbortSignal.timeout(timeoutMs)
      const timedOut = new Promise<undefined>((resolve) =>
        signal.addEventListener('abort', () => resolve(undefined), { once: true }),
      )
      try {
        const fetched = await Promise.race([fetcher(signal), timedOut])
        if (!fetched) throw new Error(signal.aborted ? `no answer within ${timeoutMs} ms` : 'no version in the answer')
        version = fetched
        source = 'fetched'
        logger.info({ waVersion: formatWaVersion(version), source, why }, 'WhatsApp Web version in use')
      } catch (error) {
        logger.warn(
          { err: error, waVersion: formatWaVersion(version), source, why },
          'could not learn the current WhatsApp Web version; keeping the one in use',
        )
      } finally {
        inFlight = undefined
      }
    })()
    return inFlight
  }

  return {
    current: () => version,
    info: () => ({ version: formatWaVersion(version), source }),
    refresh: () => fetchNow('start'),
    refreshAfterOutdated(refused) {
      if (formatWaVersion(refused) !== formatWaVersion(version)) return Promise.resolve()
      if (inFlight) return inFlight
      const now = Date.now()
      if (now - lastOutdatedRefresh < OUTDATED_REFRESH_INTERVAL_MS) return Promise.resolve()
      lastOutdatedRefresh = now
      return fetchNow('outdated')
    },
    settled: () => inFlight ?? Promise.resolve(),
    fetches: Boolean(fetcher && !pinned),
  }
}
