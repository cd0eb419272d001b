import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file gets its own process: Baileys and the simulator keep sockets and timers,
    // and a fresh process keeps one file's leftovers out of the next.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
})
