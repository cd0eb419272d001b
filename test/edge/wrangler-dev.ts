import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { sign } from 'hono/jwt'
import { setTimeout as sleep } from 'node:timers/promises'

const repoRoot = join(import.meta.dirname, '../..')

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })

export const edgeJwt = (secret: string, workspace: string, plan: 'free' | 'paid' = 'paid') =>
  sign({ workspace, plan, exp: Math.floor(Date.now() / 1000) + 3600 }, secret, 'HS256')

export interface WranglerDev {
  url: string
  /** wrangler's and workerd's output so far (for failure messages). */
  output(): string
  /** Resident memory of the workerd processes (wrangler's proxy and the Worker's runtime), in bytes. */
  workerdRss(): number
  stop(): Promise<void>
}

/**
 * `npm run dev:edge -- --port N` in its own process group (npx → wrangler → workerd), with the
 * object storage kept in `persistDir` so a restart finds the same SQLite. Resolves once /health answers.
 */
export async function startWranglerDev(options: {
  port: number
  persistDir: string
  env: Record<string, string>
}): Promise<WranglerDev> {
  const inspector = await freePort()
  const child: ChildProcess = spawn(
    'node',
    [
      'scripts/dev-edge.mjs',
      '--port',
      String(options.port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      options.persistDir,
      '--log-level',
      'warn',
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, CI: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
  let out = ''
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-200_000)))
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-200_000)))
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const url = `http://127.0.0.1:${options.port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${out}`)
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) throw new Error(`wrangler dev did not answer /health within 120 s:\n${out}`)
    await sleep(250)
  }
  return {
    url,
    output: () => out,
    workerdRss() {
      const ps = spawnSync('ps', ['-o', 'pid=,rss=,args=', '-g', String(child.pid)], { encoding: 'utf8' }).stdout
      const lines = ps.split('\n').filter((l) => /\/workerd serve /.test(l))
      if (lines.length === 0) throw new Error(`no workerd process in group ${child.pid}:\n${ps}`)
      return lines.reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[1]) * 1024, 0)
    },
    async stop() {
      const killGroup = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal)
        } catch {} // ESRCH: nothing left in the group
      }
      if (child.exitCode === null) {
        killGroup('SIGTERM')
        const killer = setTimeout(() => killGroup('SIGKILL'), 10_000)
        await exited
        clearTimeout(killer)
      }
      // Whatever outlived wrangler (or wrangler's own early exit): a workerd left behind was seen
      // spinning at half a core for the rest of a CI run, with no parent to stop it.
      killGroup('SIGKILL')
    },
  }
}
