import type { CacheStore } from '@whiskeysockets/baileys'

interface Entry {
  value: unknown
  expires: number
}

/**
 * A plain Map with a time to live per entry, in the shape Baileys' cache options take. Not
 * NodeCache (an interval timer per instance) nor lru-cache (arrays of its full `max` allocated
 * up front, and TTLs without a `max` refused): thousands of these are open at once, mostly
 * holding a few entries.
 */
class TtlCache implements CacheStore {
  readonly #entries = new Map<string, Entry>()

  constructor(
    private readonly ttlMs: number,
    private readonly isOpen: () => boolean,
    private readonly keep: (key: string) => boolean,
  ) {}

  get<T>(key: string): T | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.expires > Date.now()) return entry.value as T
    this.#entries.delete(key)
    return undefined
  }

  set<T>(key: string, value: T): void {
    if (this.isOpen() && this.keep(key)) this.#entries.set(key, { value, expires: Date.now() + this.ttlMs })
  }

  del(key: string): void {
    this.#entries.delete(key)
  }

  flushAll(): void {
    this.#entries.clear()
  }

  get size(): number {
    return this.#entries.size
  }

  sweep(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.expires <= now) this.#entries.delete(key)
  }
}

/** The caches of one Baileys socket; closing empties them and refuses later writes. */
export class SocketCaches {
  readonly #caches: TtlCache[] = []
  #open = true

  constructor(private readonly onClose: (caches: SocketCaches) => void) {}

  /** A cache whose entries live `ttlSeconds`; keys `keep` refuses are never stored. */
  cache(ttlSeconds: number, keep: (key: string) => boolean = () => true): CacheStore {
    const cache = new TtlCache(ttlSeconds * 1000, () => this.#open, keep)
    this.#caches.push(cache)
    return cache
  }

  /** Entries held, expired or not (what the sweep has not removed yet). */
  get size(): number {
    return this.#caches.reduce((sum, cache) => sum + cache.size, 0)
  }

  sweep(now: number): void {
    for (const cache of this.#caches) cache.sweep(now)
  }

  close(): void {
    if (!this.#open) return
    this.#open = false
    for (const cache of this.#caches) cache.flushAll()
    this.onClose(this)
  }
}

/**
 * Baileys' per-socket caches for every socket of the engine. Baileys would otherwise build a
 * NodeCache (a Map, stats, a clone helper and an interval timer) per cache per socket, and the
 * key store's, which is ours to close, was never closed: its timer kept it and its entries
 * alive after every replaced socket. Here each socket gets small Maps of its own, so no session
 * (and no replaced socket) can read another's entries, and one timer sweeps expired entries.
 */
export class SocketCacheRegistry {
  readonly #open = new Set<SocketCaches>()
  #timer: NodeJS.Timeout | undefined

  constructor(private readonly sweepEveryMs = 60_000) {}

  open(): SocketCaches {
    const caches = new SocketCaches((closed) => this.#closed(closed))
    this.#open.add(caches)
    this.#timer ??= setInterval(() => this.sweep(), this.sweepEveryMs).unref()
    return caches
  }

  get size(): number {
    return this.#open.size
  }

  sweep(now = Date.now()): void {
    for (const caches of this.#open) caches.sweep(now)
  }

  #closed(caches: SocketCaches): void {
    this.#open.delete(caches)
    if (this.#open.size === 0) {
      clearInterval(this.#timer)
      this.#timer = undefined
    }
  }
}
