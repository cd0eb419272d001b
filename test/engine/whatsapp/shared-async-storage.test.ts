import { addTransactionCapability, type SignalDataSet, type SignalKeyStore } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { StorageView, withSharedAsyncStorage } from '../../../src/engine/whatsapp/shared-async-storage'

const silent = { level: 'silent', child: () => silent, trace() {}, debug() {}, info() {}, warn() {}, error() {} }

/** A key store in a Map that records every write it receives. */
function memoryStore() {
  const rows = new Map<string, unknown>()
  const writes: SignalDataSet[] = []
  const store: SignalKeyStore = {
    async get(type, ids) {
      return Object.fromEntries(
        ids.filter((id) => rows.has(`${type}:${id}`)).map((id) => [id, rows.get(`${type}:${id}`)]),
      ) as never
    },
    async set(data) {
      writes.push(data)
      for (const [type, entries] of Object.entries(data))
        for (const [id, value] of Object.entries(entries ?? {})) rows.set(`${type}:${id}`, value)
    },
  }
  return { store, rows, writes }
}

/** Baileys' transactional wrapper, built the way a socket builds it. */
const transactional = (store: SignalKeyStore) =>
  withSharedAsyncStorage(() =>
    addTransactionCapability(store, silent as never, { maxCommitRetries: 1, delayBetweenTriesMs: 0 }),
  )

const symbolsOnANewPromise = () => Object.getOwnPropertySymbols(new Promise(() => {})).length

describe('one async storage for every socket', () => {
  it('lets a transaction’s store go when it is over: a timer made inside no longer holds it', async () => {
    const view = new StorageView<{ cache: string }>()
    let seenLater: unknown = 'not run'
    let seenInside: unknown
    const fired = new Promise<void>((resolve) =>
      view.run({ cache: 'the transaction’s keys' }, async () => {
        seenInside = view.getStore()
        // an lru-cache TTL timer, made inside and firing after the transaction
        setTimeout(() => {
          seenLater = view.getStore()
          resolve()
        }, 20)
      }),
    )
    await fired
    expect(seenInside).toEqual({ cache: 'the transaction’s keys' })
    expect(seenLater).toBeUndefined()
  })

  it('lets it go after a failed transaction too', async () => {
    const view = new StorageView<string>()
    let seenLater: unknown = 'not run'
    const fired = new Promise<void>((resolve) => {
      view
        .run('store', async () => {
          setTimeout(() => {
            seenLater = view.getStore()
            resolve()
          }, 20)
          throw new Error('rolled back')
        })
        .catch(() => {})
    })
    await fired
    expect(seenLater).toBeUndefined()
  })

  it('gives each view only its own store, also inside another view’s run', async () => {
    const a = new StorageView<string>()
    const b = new StorageView<string>()
    await a.run('a', async () => {
      await Promise.resolve()
      expect(a.getStore()).toBe('a')
      expect(b.getStore()).toBeUndefined()
      await b.run('b', async () => {
        await Promise.resolve()
        expect([a.getStore(), b.getStore()]).toEqual(['a', 'b'])
      })
      expect(b.getStore()).toBeUndefined()
    })
    expect(a.getStore()).toBeUndefined()
  })

  it('commits a write made inside another socket’s transaction to its own store, not the other’s', async () => {
    const first = memoryStore()
    const second = memoryStore()
    const keysA = transactional(first.store)
    const keysB = transactional(second.store)
    await keysA.transaction(async () => {
      await keysA.set({ session: { 'alice.0': Buffer.from('a') } })
      await keysB.set({ session: { 'bob.0': Buffer.from('b') } })
      // B wrote at once (it has no transaction of its own); A's write waits for A's commit.
      expect(second.rows.has('session:bob.0')).toBe(true)
      expect(first.rows.has('session:alice.0')).toBe(false)
    }, 'a')
    expect([...first.rows.keys()]).toEqual(['session:alice.0'])
    expect([...second.rows.keys()]).toEqual(['session:bob.0'])
  })

  it('adds no per-socket property to the promises created after many sockets ran transactions', async () => {
    await transactional(memoryStore().store).transaction(async () => {}, 'warm-up')
    const before = symbolsOnANewPromise()
    for (let i = 0; i < 20; i++) await transactional(memoryStore().store).transaction(async () => {}, `socket-${i}`)
    expect(symbolsOnANewPromise()).toBe(before)
  })
})
