import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { httpGateway } from '../support/http-gateway'
import { bin, repoRoot, spawnProcess } from '../support/process'
import { tempDir } from '../support/temp-dir'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'

const ADMIN_KEY = 'admin-key-for-the-package-test-0123456789'
const pkg = JSON.parse(
  spawnSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: repoRoot, encoding: 'utf8' }).stdout,
)

/** docs/embedding.md's "mount it in your Hono app" code, verbatim apart from the port and file names. */
const appSource = `import { Hono } from 'hono'
import { createGateway, loadConfig, openDatabase } from 'wa-session-gateway'

// WAL checkpoints on a worker thread, as \`wa-gateway serve\` runs them (closeDatabase stops it).
const database = await openDatabase(process.env.DATABASE_PATH ?? './data/wa.db', { checkpointInBackground: true })
export const wa = createGateway({ database, config: loadConfig(process.env) })

export const app = new Hono()
  .get('/', (c) => c.text('my app'))
  .route('/wa', wa.app)

export type AppType = typeof app
`
const nodeServer = `import { serve } from '@hono/node-server'
import { app, wa } from './app.js'

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) => console.log(\`port \${info.port}\`))
await wa.start()
`
const bunServer = `import { app, wa } from './app.js'

declare const Bun: { serve(options: { fetch: typeof app.fetch; port: number; hostname: string }): { port: number } }
const server = Bun.serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' })
console.log(\`port \${server.port}\`)
await wa.start()
`
const clientSource = `import { hc } from 'hono/client'
import type { AppType } from './app.js'

const client = hc<AppType>(process.env.BASE_URL!, { headers: { authorization: \`Bearer \${process.env.WA_KEY}\` } })
const res = await client.wa.v1.session.all.$get()
if (res.status !== 200) throw new Error(\`status \${res.status}\`)
const { sessions } = await res.json()
// Typed from the package's .d.ts: a wrong field does not compile (an 'any' would make this line an error).
// @ts-expect-error no such field
void sessions[0]?.noSuchField
const status: 'pending' | 'connecting' | 'connected' | 'expired' | 'logged_out' | 'disconnected' | undefined = sessions[0]?.status
console.log(JSON.stringify({ status, sessions }))
`

/**
 * What a Node or Bun app gets from npm: `npm pack`, install the tarball into a fresh Hono app,
 * type-check it (hc<AppType> through the published .d.ts, moduleResolution nodenext), mount
 * the gateway under /wa next to the app's own route, pair against the simulator and list the
 * sessions through the typed client, on Node (better-sqlite3) and on Bun (bun:sqlite).
 */
describe('the npm package in a fresh Hono app', () => {
  const dir = tempDir('wa-package-')
  const app = join(dir.path, 'app')
  let sim: WhatsAppSimulator
  let control: ControlApi

  beforeAll(async () => {
    const packed = spawnSync('npm', ['pack', '--pack-destination', dir.path], { cwd: repoRoot, encoding: 'utf8' })
    if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`)
    const tarball = readdirSync(dir.path).find((f) => f.endsWith('.tgz'))!
    mkdirSync(join(app, 'src'), { recursive: true })
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'my-app',
        private: true,
        type: 'module',
        dependencies: {
          'wa-session-gateway': `file:../${tarball}`,
          hono: pkg.dependencies.hono,
          '@hono/node-server': pkg.dependencies['@hono/node-server'],
        },
        devDependencies: { '@types/node': pkg.devDependencies['@types/node'] },
        allowScripts: pkg.allowScripts,
      }),
    )
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          outDir: 'out',
          types: ['node'],
          skipLibCheck: true,
        },
        include: ['src'],
      }),
    )
    writeFileSync(join(app, 'src/app.ts'), appSource)
    writeFileSync(join(app, 'src/node.ts'), nodeServer)
    writeFileSync(join(app, 'src/bun.ts'), bunServer)
    writeFileSync(join(app, 'src/client.ts'), clientSource)
    const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: app,
      encoding: 'utf8',
    })
    if (installed.status !== 0) throw new Error(`npm install failed:\n${installed.stdout}\n${installed.stderr}`)

    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
  }, 600_000)
  // Removing the fresh app's node_modules takes a while on a busy disk.
  afterAll(async () => {
    await control?.stop()
    await sim?.stop()
    dir.cleanup()
  }, 120_000)

  it('ships only dist/, the README and the Baileys and libsignal patches, and type-checks the app and its hc<AppType> client', () => {
    const listed = spawnSync('tar', ['-tzf', join(dir.path, readdirSync(dir.path).find((f) => f.endsWith('.tgz'))!)], {
      encoding: 'utf8',
    })
    const files = listed.stdout.trim().split('\n')
    expect(files).toContain('package/dist/index.mjs')
    expect(files).toContain('package/dist/index.d.mts')
    expect(files).toContain('package/dist/cli.mjs')
    expect(files).toContain('package/patches/@whiskeysockets+baileys+7.0.0-rc14.patch')
    expect(files).toContain('package/patches/libsignal+6.0.0.patch')
    expect(
      files.filter(
        (f) =>
          !/^package\/(dist\/[^/]+\.(mjs|mjs\.map|d\.mts)|patches\/[^/]+\.patch|README\.md|package\.json)$/.test(f),
      ),
    ).toEqual([])
    const compiled = spawnSync(bin('tsc'), ['-p', '.'], { cwd: app, encoding: 'utf8' })
    expect(compiled.stdout + compiled.stderr).toBe('')
    expect(compiled.status).toBe(0)
  }, 120_000)

  for (const runtime of ['node', 'bun'] as const) {
    it(`mounts under /wa on ${runtime}, pairs, and lists sessions through the typed client`, async () => {
      const command = runtime === 'node' ? 'node' : bin('bun')
      const env = {
        PORT: '0',
        DATABASE_PATH: join(dir.path, `${runtime}.db`),
        WA_SIMULATOR: control.url,
        ADMIN_API_KEY: ADMIN_KEY,
        LOG_LEVEL: 'warn',
      }
      const server = spawnProcess(command, [`out/${runtime}.js`], env, { cwd: app })
      try {
        const port = /port (\d+)/.exec(await server.waitForLine(/^port \d+/, 30_000))![1]
        const base = `http://127.0.0.1:${port}`
        expect(await (await fetch(`${base}/`)).text()).toBe('my app')
        // Swagger UI's files resolve from the installed package's dependencies.
        expect((await fetch(`${base}/wa/docs/assets/swagger-ui.css`)).status).toBe(200)

        const admin = httpGateway(`${base}/wa`, ADMIN_KEY)
        expect((await admin.post('/v1/admin/workspaces', { name: 'shop', plan: 'paid' })).status).toBe(201)
        const { key } = (await admin.post('/v1/admin/keys', { workspace: 'shop' })).body
        const sessionId = await httpGateway(`${base}/wa`, key).pairByQr(
          sim,
          runtime,
          runtime === 'node' ? '15550020001' : '15550020002',
        )

        const client = spawnSync(command, ['out/client.js'], {
          cwd: app,
          encoding: 'utf8',
          env: { ...process.env, BASE_URL: base, WA_KEY: key },
        })
        expect(client.status, client.stderr).toBe(0)
        const listed = JSON.parse(client.stdout)
        expect(listed.status).toBe('connected')
        expect(listed.sessions).toEqual([expect.objectContaining({ sessionId, sessionName: runtime, connected: true })])
        // The checkpointer's worker (requiring the driver from the installed package) copied the
        // schema and the session into the file: without it they stay in the WAL, the file ~4 KB.
        await vi.waitFor(() => expect(statSync(env.DATABASE_PATH).size).toBeGreaterThan(50_000), { timeout: 5_000 })
      } finally {
        await server.stop()
      }
    }, 120_000)
  }
})
