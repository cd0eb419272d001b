import { createRequire } from 'node:module'
import { defineConfig } from 'vitest/config'

// The n8n package's nodes import n8n-workflow, whose ESM build imports files without extensions
// (Node refuses them): its CommonJS build, the one n8n-core and n8n itself load, one copy for all.
const n8nWorkflow = createRequire(new URL('./integrations/n8n/package.json', import.meta.url)).resolve('n8n-workflow')

export default defineConfig({
  resolve: { alias: { 'n8n-workflow': n8nWorkflow } },
  test: {
    // Each file gets its own process: Baileys and the simulator keep sockets and timers,
    // and a fresh process keeps one file's leftovers out of the next.
    pool: 'forks',
    // The panel's bundle (a generated module the app imports) is built from src/panel first.
    globalSetup: ['test/support/build-panel.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'gateway', include: ['test/**/*.test.ts'], exclude: ['test/dist/**', 'test/docker/**'] },
      },
      {
        // Tests of the build itself (npm start, npm pack, the binary) all write dist/: one at a
        // time, after the rest (groupOrder), so no build pulls files from under another.
        extends: true,
        test: {
          name: 'dist',
          include: ['test/dist/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
