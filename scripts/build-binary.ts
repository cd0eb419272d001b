/**
 * `npm run build:binary`: the gateway as one executable, dist/wa-gateway (Bun's --compile,
 * linux-x64). Entry src/runtime/binary.ts embeds the docs assets and ffmpeg. Node-only
 * modules (better-sqlite3 and its native addon, @hono/node-server) are replaced by a stub:
 * under Bun the gateway picks bun:sqlite and Bun.serve, so they are never called, and an
 * external import would otherwise be hoisted into a static one and fail at start.
 */
import type { BunPlugin } from 'bun'

const nodeOnly = /^(better-sqlite3|@hono\/node-server)$/

const leaveOutNodeOnly: BunPlugin = {
  name: 'leave-out-node-only',
  setup(build) {
    build.onResolve({ filter: nodeOnly }, (args) => ({ path: args.path, namespace: 'node-only' }))
    build.onLoad({ filter: /.*/, namespace: 'node-only' }, (args) => ({
      loader: 'js',
      contents: `const missing = () => { throw new Error(${JSON.stringify(`${args.path} is not part of the single binary (it runs on Bun)`)}) }
export default missing
export const serve = missing`,
    }))
  },
}

const started = performance.now()
const result = await Bun.build({
  entrypoints: ['src/runtime/binary.ts'],
  compile: { target: 'bun-linux-x64', outfile: 'dist/wa-gateway' },
  minify: true,
  bytecode: true,
  sourcemap: 'linked',
  plugins: [leaveOutNodeOnly],
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
const size = Bun.file('dist/wa-gateway').size
console.log(`dist/wa-gateway: ${(size / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms`)
