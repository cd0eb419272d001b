import asyncHooks, { AsyncLocalStorage } from 'node:async_hooks'
import * as nodeModule from 'node:module'

/**
 * Baileys 7 (addTransactionCapability) makes an AsyncLocalStorage per socket and never disables
 * it (WhiskeySockets/Baileys#2806). On Node's async_hooks-based storage (Node 20; 22 without
 * AsyncContextFrame) every enabled storage stamps one property on every promise, timer and
 * socket the process creates from then on: with 50 connected sessions each new promise carried
 * 52, so at 1,000 each one would carry a dictionary of 1,000+ entries, and a reconnect adds one
 * for good. Baileys takes no storage through its config, so while a socket is being built
 * (synchronously), `AsyncLocalStorage` as Baileys imports it makes views over one shared storage.
 */
const shared = new AsyncLocalStorage<Map<symbol, unknown>>()

/** What Baileys uses of its storage (run, getStore), with the other sockets' stores out of sight. */
export class StorageView<T> {
  readonly #token = Symbol('baileys transaction')

  getStore(): T | undefined {
    return shared.getStore()?.get(this.#token) as T | undefined
  }

  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    // Stores of outer views (another socket's transaction this one runs inside) stay visible to them.
    const stores = new Map(shared.getStore())
    stores.set(this.#token, store)
    const result = shared.run(stores, callback, ...args)
    // Every timer and promise made inside keeps `stores` as its context for as long as it lives:
    // an lru-cache entry's TTL timer (Baileys' retry manager, 5–15 min) kept a whole key-store
    // transaction's cache with it (the soak bench's heap grew ~3 MB a minute). Once the
    // transaction is over, its store is let go; what it started and outlives it runs outside it.
    if (result instanceof Promise) result.then(this.#release(stores), this.#release(stores))
    else stores.delete(this.#token)
    return result
  }

  #release(stores: Map<symbol, unknown>): () => void {
    return () => void stores.delete(this.#token)
  }

  /** Nothing to release: the shared storage stays enabled, once, for every view. */
  disable(): void {}
}

/** Sets Node's `AsyncLocalStorage` export for ESM importers too; false where that cannot be done. */
function setStorageExport(value: unknown): boolean {
  try {
    ;(asyncHooks as { AsyncLocalStorage: unknown }).AsyncLocalStorage = value
    nodeModule.syncBuiltinESMExports()
    return true
  } catch {
    return false
  }
}

/**
 * Calls `build` (a synchronous socket constructor) with Node's `AsyncLocalStorage` export swapped
 * for StorageView. Where builtin exports cannot be swapped (Workers), `build` runs as is.
 */
export function withSharedAsyncStorage<R>(build: () => R): R {
  const original = asyncHooks.AsyncLocalStorage
  if (!setStorageExport(StorageView)) {
    setStorageExport(original)
    return build()
  }
  try {
    return build()
  } finally {
    setStorageExport(original)
  }
}
