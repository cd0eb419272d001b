/**
 * `npm run build:binary`: the gateway as one executable per Linux CPU (Bun's --compile):
 * dist/wa-gateway (linux-x64) and dist/wa-gateway-linux-arm64. `bun scripts/build-binary.ts
 * linux-arm64` builds only the targets named. Entry src/runtime/binary.ts embeds the docs assets
 * and ffmpeg. Node-only modules (better-sqlite3 and its native addon, @hono/node-server) are
 * replaced by a stub: under Bun the gateway picks bun:sqlite and Bun.serve, so they are never
 * called, and an external import would otherwise be hoisted into a static one and fail at start.
 *
 * Each target's Bun runtime and static ffmpeg are the per-platform npm packages at the versions
 * package-lock.json pins (scripts/platform-package.ts fetches those npm skipped for another CPU).
 * For the machine's own CPU the runtime is the Bun running this script (its npm package's
 * postinstall moved the executable into `bun`); for another CPU it is handed to Bun as
 * `executablePath`, so Bun downloads nothing itself. It must be the bundler's own version: the
 * bytecode compiled here only runs on that Bun.
 */
import type { BunPlugin, CompileBuildOptions } from 'bun'
import { join } from 'node:path'
import { platformPackage } from './platform-package'

const targets = {
  'linux-x64': {
    arch: 'x64',
    compile: 'bun-linux-x64',
    outfile: 'dist/wa-gateway',
    runtime: '@oven/bun-linux-x64',
    ffmpeg: '@ffmpeg-installer/linux-x64',
  },
  'linux-arm64': {
    arch: 'arm64',
    compile: 'bun-linux-arm64',
    outfile: 'dist/wa-gateway-linux-arm64',
    runtime: '@oven/bun-linux-aarch64',
    ffmpeg: '@ffmpeg-installer/linux-arm64',
  },
} as const
type TargetName = keyof typeof targets

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

/** binary.ts imports `binary-target:ffmpeg` (a file import): the target's static ffmpeg. */
const targetFfmpeg = (path: string): BunPlugin => ({
  name: 'target-ffmpeg',
  setup(build) {
    build.onResolve({ filter: /^binary-target:ffmpeg$/ }, () => ({ path }))
  },
})

async function buildTarget(name: TargetName): Promise<void> {
  const target = targets[name]
  const started = performance.now()
  const compile: CompileBuildOptions = { target: target.compile, outfile: target.outfile }
  if (process.platform !== 'linux' || process.arch !== target.arch) {
    const runtime = platformPackage(target.runtime)
    if (runtime.version !== Bun.version) {
      throw new Error(`${target.runtime}@${runtime.version} is locked but this is Bun ${Bun.version}: npm ci first`)
    }
    compile.executablePath = join(runtime.dir, 'bin/bun')
  }
  const ffmpeg = join(platformPackage(target.ffmpeg).dir, 'ffmpeg')
  const result = await Bun.build({
    entrypoints: ['src/runtime/binary.ts'],
    compile,
    minify: true,
    bytecode: true,
    sourcemap: 'linked',
    plugins: [leaveOutNodeOnly, targetFfmpeg(ffmpeg)],
  })
  if (!result.success) {
    for (const log of result.logs) console.error(log)
    process.exit(1)
  }
  const size = Bun.file(target.outfile).size
  console.log(
    `${target.outfile}: ${name}, ${(size / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms`,
  )
}

const asked = process.argv.slice(2)
for (const name of asked) {
  if (!(name in targets)) throw new Error(`unknown target ${name}; known: ${Object.keys(targets).join(', ')}`)
}
for (const name of asked.length > 0 ? (asked as TargetName[]) : (Object.keys(targets) as TargetName[])) {
  await buildTarget(name)
}
