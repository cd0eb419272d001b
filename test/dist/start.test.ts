import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, listeningPort, repoRoot, spawnProcess } from '../support/process'
import { tempDir } from '../support/temp-dir'

/**
 * `npm start` and `npm run start:bun` run the compiled CLI (dist/cli.mjs, built by `prepare`
 * on npm ci): no TypeScript loader at start. Logs how long each takes to listen.
 */
describe('npm start and npm run start:bun', () => {
  const dir = tempDir('wa-start-')
  beforeAll(() => {
    const built = spawnSync('npm', ['run', '-s', 'build'], { cwd: repoRoot, encoding: 'utf8' })
    if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stderr}`)
  }, 120_000)
  afterAll(() => dir.cleanup())

  for (const script of ['start', 'start:bun']) {
    it(`npm run ${script} serves from dist/ and stops on SIGTERM`, async () => {
      const started = performance.now()
      // npm itself would be the process SIGTERM reaches; run what the script runs, as npm does.
      const command = JSON.parse(
        spawnSync('node', ['-p', `JSON.stringify(require('./package.json').scripts['${script}'])`], {
          cwd: repoRoot,
          encoding: 'utf8',
        }).stdout,
      ) as string
      expect(command).toMatch(/dist\/cli\.mjs serve$/)
      const [program, ...args] = command.split(' ')
      // `node` is the one on PATH; `bun` the devDependency (npm puts node_modules/.bin first).
      const server = spawnProcess(program === 'node' ? 'node' : bin(program!), args, {
        DATABASE_PATH: join(dir.path, `${script}.db`),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      })
      const port = listeningPort(await server.waitForLine(/"msg":"listening"/))
      console.log(`npm run ${script}: listening ${Math.round(performance.now() - started)} ms after spawn`)
      expect(await (await fetch(`http://127.0.0.1:${port}/health`)).json()).toMatchObject({
        status: 'ok',
        whatsappWebVersion: { version: expect.stringMatching(/^2\.\d+\.\d+$/), source: 'bundled' },
      })
      expect(await server.stop()).toBe(0)
    }, 60_000)
  }

  it('dist/cli.mjs carries the packages it needs to start: none of drizzle-orm, zod or hono is read from node_modules', async () => {
    // As ESM they are about 730 files, and resolving and reading them was most of the cold start.
    const log = join(dir.path, 'modules.log')
    const server = spawnProcess(
      'node',
      ['--import', join(repoRoot, 'test/support/module-log.mjs'), join(repoRoot, 'dist/cli.mjs'), 'serve'],
      { DATABASE_PATH: join(dir.path, 'modules.db'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', MODULE_LOG: log },
    )
    const port = listeningPort(await server.waitForLine(/"msg":"listening"/))
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200)
    expect(await server.stop()).toBe(0)
    const fromNodeModules = readFileSync(log, 'utf8')
      .split('\n')
      .filter((url) => url.includes('/node_modules/'))
    const packageOf = (url: string) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)![1]
    const packages = new Set(fromNodeModules.map(packageOf))
    for (const bundled of ['drizzle-orm', 'zod', 'hono', '@hono/zod-openapi']) expect(packages).not.toContain(bundled)
    // What is left are the native driver, the logger, the metrics and ws (a few files each).
    expect(fromNodeModules.length).toBeLessThan(40)
  }, 60_000)
})
