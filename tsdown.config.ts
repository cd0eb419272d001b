import { defineConfig } from 'tsdown'

/**
 * The npm package: ESM JavaScript for Node 20+ and Bun, one bundled `.d.ts` for the library
 * (so `hc<AppType>()` types resolve under any moduleResolution). Dependencies stay external:
 * the installing app's npm resolves them. Migrations are already code (src/db/migrations/bundle.ts).
 */
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  // Only what this build writes: dist/wa-gateway (npm run build:binary) stays.
  clean: ['dist/*.mjs', 'dist/*.mjs.map', 'dist/*.d.mts'],
  dts: { tsconfig: 'tsconfig.build.json' },
  sourcemap: true,
  deps: { neverBundle: ['bun:sqlite'] },
  // The .d.ts pass takes most of the ~8 s on purpose (it type-checks the public API); no need to say so on every npm ci.
  inputOptions: { checks: { pluginTimings: false } },
})
