/**
 * Cold start: process spawn to the first 200 on `/health`, with 0 sessions on a migrated
 * database, for the gateway run as TypeScript through tsx (`node --import tsx src/cli.ts serve`),
 * the gateway compiled to JavaScript (esbuild, into a temporary folder of the project so
 * node_modules resolve), and the reference, `node` + Hono (`reference/bare-hono.mjs`).
 * Also the RSS of each right after that first 200 (settled 1 s).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { join } from 'node:path'
import { compileGateway } from './build'
import { freePort, median, settledRss, startNode, stop } from './processes'
import { seedDatabaseFile } from './seed'
import { tempDir } from '../support/temp-dir'

export interface StartupFigures {
  bareMs: number
  tsxMs: number
  compiledMs: number
  bareRssMb: number
  tsxRssMb: number
  compiledRssMb: number
}

async function untilHealthy(port: number, started: number, child: { exitCode: number | null }): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before /health answered`)
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`)
      if (response.status === 200) return performance.now() - started
    } catch {
      // not listening yet
    }
    await sleep(5)
  }
}

async function coldStart(
  args: string[],
  env: Record<string, string>,
  withRss: boolean,
): Promise<{ ms: number; rssMb: number }> {
  const port = await freePort()
  const started = performance.now()
  const child = startNode(
    args,
    { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    { quietStdout: true },
  )
  try {
    const ms = await untilHealthy(port, started, child)
    return { ms, rssMb: withRss ? await settledRss(child.pid!, 1_000) : 0 }
  } finally {
    await stop(child)
  }
}

export async function measureStartup({ quick = false } = {}): Promise<StartupFigures> {
  const rounds = quick ? 3 : 7
  const dir = tempDir('bench-startup-')
  const compiled = await compileGateway()
  try {
    const env = { DATABASE_PATH: join(dir.path, 'gateway.db') }
    await seedDatabaseFile(env.DATABASE_PATH, 0)
    const bare: { ms: number; rssMb: number }[] = []
    const tsx: { ms: number; rssMb: number }[] = []
    const js: { ms: number; rssMb: number }[] = []
    for (let i = 0; i < rounds; i++) {
      const withRss = i === 0
      bare.push(await coldStart(['test/bench/reference/bare-hono.mjs'], {}, withRss))
      tsx.push(await coldStart(['--import', 'tsx', 'src/cli.ts', 'serve'], env, withRss))
      js.push(await coldStart([compiled.entry, 'serve'], env, withRss))
    }
    return {
      bareMs: median(bare.map((r) => r.ms)),
      tsxMs: median(tsx.map((r) => r.ms)),
      compiledMs: median(js.map((r) => r.ms)),
      bareRssMb: bare[0]!.rssMb,
      tsxRssMb: tsx[0]!.rssMb,
      compiledRssMb: js[0]!.rssMb,
    }
  } finally {
    compiled.cleanup()
    dir.cleanup()
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await measureStartup({ quick: process.argv.includes('--quick') }))
