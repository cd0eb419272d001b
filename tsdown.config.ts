import { defineConfig, type UserConfig } from 'tsdown'

const common = {
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  sourcemap: true,
  // The .d.ts pass takes most of the ~8 s on purpose (it type-checks the public API); no need to say so on every npm ci.
  inputOptions: { checks: { pluginTimings: false } },
} satisfies UserConfig

/**
 * The pure-JavaScript packages the CLI loads at start, bundled into it: as ESM they are about 730
 * files (drizzle-orm 405, zod 231, hono 91), and resolving and reading each one was most of the
 * cold start (bench: cold start vs node + Hono). Native, lazily loaded and worker-spawning
 * packages (better-sqlite3, Baileys, ffmpeg, pino) stay external.
 */
const CLI_BUNDLED = [
  'drizzle-orm',
  'zod',
  'zod-openapi',
  'hono',
  'hono-rate-limiter',
  '@hono/node-server',
  '@hono/zod-openapi',
  '@hono/zod-validator',
  'ipaddr.js',
  'aws4fetch',
]

/** The library: ESM for Node 20+ and Bun, one bundled `.d.ts` (so `hc<AppType>()` types resolve under any moduleResolution); its dependencies stay external, the installing app's npm resolves them (one Hono, one zod). */
export const libraryBuild = {
  ...common,
  entry: { index: 'src/index.ts' },
  // Only what this build writes: dist/wa-gateway (npm run build:binary) stays.
  clean: ['dist/*.mjs', 'dist/*.mjs.map', 'dist/*.d.mts'],
  dts: { tsconfig: 'tsconfig.build.json' },
  deps: { neverBundle: ['bun:sqlite'] },
} satisfies UserConfig

/** The CLI (`npm start`, the package's bin): what the benches compile too (test/bench/build.ts). */
export const cliBuild = {
  ...common,
  entry: { cli: 'src/cli.ts' },
  clean: false,
  dts: false,
  deps: {
    neverBundle: ['bun:sqlite'],
    alwaysBundle: CLI_BUNDLED.map((name) => new RegExp(`^${name.replaceAll('.', '\\.')}(/|$)`)),
  },
} satisfies UserConfig

/** Migrations are already code (src/db/migrations/bundle.ts). */
export default defineConfig([libraryBuild, cliBuild])
