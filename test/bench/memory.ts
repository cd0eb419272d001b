/**
 * Memory of a gateway process with N connected sessions against the simulator.
 * The simulator runs in its own process (the bench scans each QR through its control API),
 * the gateway in another,
 * so the figures are the gateway's alone: RSS read from /proc, median of several samples.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, rmSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const root = join(import.meta.dirname, '../..')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function start(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
}

function firstLine(child: ChildProcess, match: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => match.test(line) && resolve(line))
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before ${match}`)))
  })
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

async function settledRss(pid: number): Promise<number> {
  await sleep(3_000)
  const samples: number[] = []
  for (let i = 0; i < 5; i++) {
    samples.push(rssMb(pid))
    await sleep(200)
  }
  return samples.sort((a, b) => a - b)[2]!
}

export async function measureMemory(steps: number[]): Promise<{ sessions: number; rssMb: number; perSessionMb: number; connectSeconds: number }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-'))
  const sim = start(['test/wa-sim/cli.ts', '--log', 'warn'], {})
  const gateway = { process: undefined as ChildProcess | undefined }
  try {
    const { controlUrl } = JSON.parse(await firstLine(sim, /controlUrl/)) as { controlUrl: string }
    const proc = start(['src/cli.ts', 'serve'], {
      DATABASE_PATH: join(dir, 'bench.db'),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      WA_SIMULATOR: controlUrl,
    })
    gateway.process = proc
    const keyLine = firstLine(proc, /API key/)
    const port = (JSON.parse(await firstLine(proc, /"msg":"listening"/)) as { port: number }).port
    const key = /wag_\w+/.exec(await keyLine)![0]
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      })

    const baseline = await settledRss(proc.pid!)
    const rows = [{ sessions: 0, rssMb: baseline, perSessionMb: 0, connectSeconds: 0 }]
    let opened = 0
    for (const target of steps) {
      const started = performance.now()
      while (opened < target) {
        const batch = Array.from({ length: Math.min(10, target - opened) }, (_, i) => opened + i)
        await Promise.all(
          batch.map(async (i) => {
            const response = await api('/v1/session/connect', {
              method: 'POST',
              body: JSON.stringify({ sessionName: `bench-${i}`, webhookUrl: 'https://hooks.invalid/bench' }),
            })
            if (response.status !== 200) throw new Error(`connect ${i}: ${response.status} ${await response.text()}`)
            // The simulated phone scans the QR the gateway answered with.
            const { qrCode } = (await response.json()) as { qrCode: string }
            const scan = await fetch(`${controlUrl}/scan`, { method: 'POST', body: JSON.stringify({ qr: qrCode }) })
            if (scan.status !== 200) throw new Error(`scan ${i}: ${scan.status} ${await scan.text()}`)
          }),
        )
        opened += batch.length
      }
      for (;;) {
        const { sessions } = (await (await api('/v1/session/all')).json()) as { sessions: { connected: boolean }[] }
        if (sessions.filter((s) => s.connected).length === target) break
        await sleep(100)
      }
      const connectSeconds = (performance.now() - started) / 1000
      const rss = await settledRss(proc.pid!)
      rows.push({ sessions: target, rssMb: rss, perSessionMb: (rss - baseline) / target, connectSeconds })
    }
    return rows
  } finally {
    gateway.process?.kill('SIGTERM')
    sim.kill('SIGTERM')
    await sleep(500)
    rmSync(dir, { recursive: true, force: true })
  }
}
