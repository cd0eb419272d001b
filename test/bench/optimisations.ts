/**
 * `npm run bench -- --only optimisations`: what each per-request optimisation of src/perf/ still
 * buys. The gateway is compiled once as it is and once per optimisation with that one turned off
 * (a one-line change to a copy of src/, refused loudly when the line is gone), each variant serves
 * authed `GET /v1/session/all` in its own process, and the server's CPU time per request
 * (utime + stime from /proc) is compared with the untouched build's, rounds interleaved. CPU
 * time, not req/s: time spent waiting for a core on a shared machine is not counted. A variant
 * at ~1.0× means its optimisation no longer earns its keep: delete it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { build } from 'esbuild'
import { drain, listeningPort, median, root, startNode, stop } from './processes'
import { seedDatabaseFile } from './seed'

type Patch = { file: string; from: string; to: string }

/** Each optimisation of src/perf/, turned off by one change. */
export const turnedOff: Record<string, Patch> = {
  'read-memo': {
    file: 'perf/read-memo.ts',
    from: '    read<T>(key: string, load: () => T): T {',
    to: '    read<T>(key: string, load: () => T): T {\n      if (key) return load()',
  },
  'json-once': {
    file: 'perf/json-once.ts',
    from: '    let text = texts.get(value)',
    to: '    let text: string | undefined',
  },
  'access-line': {
    file: 'perf/access-line.ts',
    from: '  if (!stream || stream[pino.symbols.needsMetadataGsym]) return viaPino',
    to: '  return viaPino',
  },
  'node-response-header': {
    file: 'perf/node-response-header.ts',
    from: '  if (outgoing && !outgoing.headersSent)',
    to: '  if (false && outgoing && !outgoing.headersSent)',
  },
  prepared: {
    file: 'perf/prepared.ts',
    from: '  if (cache.db !== ctx.db && connectionOf(cache.db) !== connectionOf(ctx.db)) return build(ctx.db)',
    to: '  return build(ctx.db)',
  },
}

async function compileVariant(dir: string, patch?: Patch): Promise<string> {
  cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true })
  if (patch) {
    const path = join(dir, 'src', patch.file)
    const text = readFileSync(path, 'utf8')
    if (!text.includes(patch.from)) throw new Error(`${patch.file} changed: update test/bench/optimisations.ts`)
    writeFileSync(path, text.replace(patch.from, patch.to))
  }
  await build({
    entryPoints: [join(dir, 'src/cli.ts')],
    outdir: join(dir, 'out'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  })
  return join(dir, 'out/cli.js')
}

/** CPU time the process has used, µs. */
function cpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100
}

export interface OptimisationFigure {
  name: string
  /** µs of server CPU per request with it, and without it (median of the rounds). */
  withUs: number
  withoutUs: number
}

export async function measureOptimisations({ quick = false } = {}): Promise<OptimisationFigure[]> {
  const amount = quick ? 10_000 : 40_000
  const rounds = quick ? 3 : 5
  // Inside the project, so the compiled code finds node_modules.
  const dir = mkdtempSync(join(root, '.bench-build-'))
  const servers: { name: string; url: string; key: string; child: ReturnType<typeof startNode> }[] = []
  try {
    for (const [name, patch] of [['as it is', undefined] as const, ...Object.entries(turnedOff)]) {
      const variant = join(dir, name.replaceAll(' ', '-'))
      const entry = await compileVariant(variant, patch)
      const databasePath = join(variant, 'gateway.db')
      const { key } = await seedDatabaseFile(databasePath)
      const child = startNode([entry, 'serve'], {
        DATABASE_PATH: databasePath,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        RATE_LIMIT_PER_MINUTE: '1000000000',
      })
      servers.push({ name, url: `http://127.0.0.1:${await listeningPort(child)}/v1/session/all`, key, child })
      drain(child)
    }
    const load = (s: (typeof servers)[number], requests: number) =>
      autocannon({ url: s.url, connections: 32, amount: requests, headers: { authorization: `Bearer ${s.key}` } })
    for (const s of servers) await load(s, 5_000) // warm-up: JIT, statement caches
    const perRequest = new Map<string, number[]>()
    for (let r = 0; r < rounds; r++) {
      for (const s of servers) {
        const before = cpuUs(s.child.pid!)
        const result = await load(s, amount)
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${s.name}: ${result.non2xx} non-2xx answers`)
        perRequest.set(s.name, [...(perRequest.get(s.name) ?? []), (cpuUs(s.child.pid!) - before) / amount])
      }
    }
    const withUs = median(perRequest.get('as it is')!)
    return Object.keys(turnedOff).map((name) => ({ name, withUs, withoutUs: median(perRequest.get(name)!) }))
  } finally {
    await Promise.all(servers.map((s) => stop(s.child)))
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureOptimisations())
