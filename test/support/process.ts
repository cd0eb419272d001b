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
