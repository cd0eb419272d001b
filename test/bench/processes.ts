/** Child processes for the benches: spawn, wait for a line or a 200, read RSS from /proc. */
import { spawn, type ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

export const root = join(import.meta.dirname, '../..')
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** CPU time (user + system) a process has used so far, µs, from /proc (Linux). */
export function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100
}

/** `node [args]` in the project root with extra env; stdout piped (for lines), stderr inherited. */
export function startNode(
  args: string[],
  env: Record<string, string> = {},
  options: { quietStdout?: boolean } = {},
): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', options.quietStdout ? 'ignore' : 'pipe', 'inherit'],
  })
}

export function firstLine(child: ChildProcess, match: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      if (match.test(line)) {
        lines.close()
        resolve(line)
      }
    })
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before ${match}`)))
  })
}

/** Keeps reading a child's stdout so a full pipe never blocks it. */
export function drain(child: ChildProcess): void {
  child.stdout?.resume()
}

export async function listeningPort(child: ChildProcess): Promise<number> {
  return (JSON.parse(await firstLine(child, /"msg":"listening"/)) as { port: number }).port
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.once('error', reject)
  })
}

export const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** RSS and its anonymous part (heap and native allocations, not mapped files), /proc/<pid>/smaps_rollup, in MB. */
export function smapsRollupMb(pid: number): { rss: number; anonymous: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)![1]) / 1024
  return { rss: field('Rss'), anonymous: field('Anonymous') }
}

/** RSS once it settled: wait, then the median of five samples. */
export async function settledRss(pid: number, waitMs = 3_000): Promise<number> {
  await sleep(waitMs)
  const samples: number[] = []
  for (let i = 0; i < 5; i++) {
    samples.push(rssMb(pid))
    await sleep(200)
  }
  return median(samples)
}

export function stop(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill(signal)
  })
}

/** CPU time a process used so far (user + system), in seconds, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces, in parentheses): utime and stime are 14 and 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
