/**
 * Preloaded by `bun test` (bunfig.toml): the few vitest helpers the end-to-end suites use that
 * bun:test's `vi` lacks. Under vitest this file is never loaded.
 */
import { vi } from 'bun:test'

type WaitFor = <T>(
  callback: () => T | Promise<T>,
  options?: number | { timeout?: number; interval?: number },
) => Promise<T>

const waitFor: WaitFor = async (callback, options) => {
  const { timeout = 1000, interval = 50 } = typeof options === 'number' ? { timeout: options } : (options ?? {})
  const deadline = Date.now() + timeout
  for (;;) {
    try {
      return await callback()
    } catch (error) {
      if (Date.now() >= deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, interval))
    }
  }
}

const bunVi = vi as unknown as { waitFor?: WaitFor }
bunVi.waitFor ??= waitFor
