/** The simulator in its own process (`npm run sim`), so a bench measures the gateway's work alone. */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const root = join(import.meta.dirname, '../..')

export interface SimulatorProcess {
  controlUrl: string
  child: ChildProcess
  /** POST to the control API; answers the parsed JSON. */
  control<T = unknown>(path: string, body?: unknown): Promise<T>
  stop(): Promise<void>
}

export async function startSimulatorProcess(args: string[] = []): Promise<SimulatorProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/wa-sim/cli.ts', '--port', '0', '--log', 'silent', ...args],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`simulator exited (${code}) before it listened`)))
  })
  const { controlUrl } = JSON.parse(line) as { controlUrl: string }
  return {
    controlUrl,
    child,
    async control<T>(path: string, body?: unknown) {
      const response = await fetch(
        new URL(path, controlUrl),
        body === undefined
          ? {}
          : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
      )
      if (!response.ok) throw new Error(`simulator ${path} answered ${response.status}: ${await response.text()}`)
      return (await response.json()) as T
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
