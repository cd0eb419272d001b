import { afterEach, describe, expect, it, vi } from 'vitest'
import { isCacheableKey } from '../../../../src/engine/whatsapp/socket/auth-state'
import { SocketCacheRegistry } from '../../../../src/engine/whatsapp/socket/socket-caches'

describe('socket caches', () => {
  afterEach(() => vi.useRealTimers())

  it('never answers one socket with another socket’s entry under the same key', () => {
    const registry = new SocketCacheRegistry()
    const a = registry.open().cache(300)
    const b = registry.open().cache(300)
    a.set('session.15550001111.0', 'a-session')
    expect(b.get('session.15550001111.0')).toBeUndefined()
    b.set('session.15550001111.0', 'b-session')
    expect(a.get('session.15550001111.0')).toBe('a-session')
    expect(b.get('session.15550001111.0')).toBe('b-session')
  })

  it('empties a closed socket’s caches and refuses their later writes, leaving other sockets alone', () => {
    const registry = new SocketCacheRegistry()
    const first = registry.open()
    const other = registry.open().cache(300)
    const keys = first.cache(300)
    keys.set('sender-key.group', 'old')
    other.set('sender-key.group', 'other')
    first.close()
    expect(keys.get('sender-key.group')).toBeUndefined()
    keys.set('sender-key.group', 'late write from a replaced socket')
    expect(keys.get('sender-key.group')).toBeUndefined()
    expect(other.get('sender-key.group')).toBe('other')
    expect(registry.size).toBe(1)
  })

  it('forgets entries after their time to live, on read and by the sweep', () => {
    vi.useFakeTimers()
    const registry = new SocketCacheRegistry(1_000)
    const caches = registry.open()
    const cache = caches.cache(5)
    cache.set('x', 1)
    cache.set('y', 2)
    vi.advanceTimersByTime(4_000)
    expect(cache.get('x')).toBe(1)
    expect(caches.size).toBe(2)
    vi.advanceTimersByTime(1_500)
    // Neither was read since: the registry's timer removed both.
    expect(caches.size).toBe(0)
    expect(cache.get('x')).toBeUndefined()
    cache.set('z', 3)
    vi.advanceTimersByTime(4_000)
    expect(cache.get('z')).toBe(3)
    vi.advanceTimersByTime(1_500)
    expect(cache.get('z')).toBeUndefined()
    caches.close()
  })

  it('does not keep pre-keys in the key-store cache', () => {
    const cache = new SocketCacheRegistry().open().cache(300, isCacheableKey)
    cache.set('pre-key.17', { public: 'p', private: 'q' })
    cache.set('session.15550001111.0', 'record')
    expect(cache.get('pre-key.17')).toBeUndefined()
    expect(cache.get('session.15550001111.0')).toBe('record')
  })
})
