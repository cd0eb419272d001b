import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'

export const repoRoot = join(import.meta.dirname, '../..')
export const bin = (name: string) => join(repoRoot, 'node_modules/.bin', name)

/** Runs `tsx src/cli.ts ...args` to completion. */
export function runCli(args: string[], env: Record<string, string>) {
  const result = spawnSync(bin('tsx'), ['src/cli.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

export interface Spawned {
  child: ChildProcess
  output: () => string
  /** Resolves with the first stdout line matching, or rejects after the timeout. */
  waitForLine(match: RegExp, timeoutMs?: number): Promise<string>
  stop(): Promise<number | null>
}

/** `cwd` defaults to the repository; `inheritEnv: false` gives the child only `env` (a clean machine). */
export function spawnProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; inheritEnv?: boolean } = {},
): Spawned {
  const child = spawn(command, args, {
    cwd: options.cwd ?? repoRoot,
    env: options.inheritEnv === false ? env : { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const waiters: { match: RegExp; resolve: (line: string) => void }[] = []
  const check = () => {
    for (const line of out.split('\n')) {
      for (const w of [...waiters]) {
        if (w.match.test(line)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(line)
        }
      }
    }
  }
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString()
    check()
  })
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child,
    output: () => out,
    waitForLine: (match, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no line matching ${match} within ${timeoutMs} ms:\n${out}`)),
          timeoutMs,
        )
        waiters.push({
          match,
          resolve: (line) => {
            clearTimeout(timer)
            resolve(line)
          },
        })
        check()
        void exited.then((code) => reject(new Error(`process exited (${code}) before ${match}:\n${out}`)))
      }),
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}

/** The port from the gateway's JSON "listening" log line. */
export const listeningPort = (line: string) => (JSON.parse(line) as { port: number }).port

export interface GatewayProcess {
  process: Spawned
  /** http://127.0.0.1:<port> */
  url: string
  /** The first start's API key, when this start printed one (an empty database). */
  firstKey?: string
}

/**
 * `npm run dev`'s gateway in a child process of its own, on `databasePath`, pointed at a
 * simulator: for tests that kill it (SIGKILL must reach the process that holds the database, so
 * it is node itself, not the tsx wrapper). Resolves once it listens.
 */
export async function startGatewayProcess(
  databasePath: string,
  simulatorUrl: string,
  env: Record<string, string> = {},
): Promise<GatewayProcess> {
  const child = spawnProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    DATABASE_PATH: databasePath,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    WA_SIMULATOR: simulatorUrl,
    ...env,
  })
  const port = listeningPort(await child.waitForLine(/"msg":"listening"/, 30_000))
  const firstKey = /API key[^:]*: (wag_\w+)/.exec(child.output())?.[1]
  return { process: child, url: `http://127.0.0.1:${port}`, ...(firstKey ? { firstKey } : {}) }
}
