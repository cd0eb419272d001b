/** A value components follow (useStore), set from anywhere: the panel's small shared state. */
import { useSyncExternalStore } from 'hono/jsx/dom'

export interface Store<T> {
  get(): T
  set(value: T): void
  update(change: (value: T) => T): void
  subscribe(listener: () => void): () => void
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial
  const listeners = new Set<() => void>()
  const store: Store<T> = {
    get: () => value,
    set(next) {
      value = next
      for (const listener of listeners) listener()
    },
    update: (change) => store.set(change(value)),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  return store
}

export const useStore = <T>(store: Store<T>): T => useSyncExternalStore(store.subscribe, store.get)
