import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bin, listeningPort, spawnProcess } from '../support/process'
import { rawConnection } from '../support/raw-http'
import { tempDir } from '../support/temp-dir'
import { setTimeout as sleep } from 'node:timers/promises'

const dir = tempDir()
afterAll(() => dir.cleanup())

/**
 * A proxy or client pool keeps its upstream connections longer than Node's 5 s default; a request
 * sent on a connection the gateway is closing at that moment is reset (a proxy's 502). The
 * gateway started as operators start it (`serve`) must keep an idle connection open for that.
 */
describe.each([
  // Each idles past its runtime's default: Node's keepAliveTimeout is 5 s, Bun's idleTimeout 10 s
  // (its timer is coarse: it closes at about 12 s).
  { runtime: 'Node', command: bin('tsx'), idleMs: 6_000 },
  { runtime: 'Bun', command: bin('bun'), idleMs: 14_000 },
])('keep-alive under $runtime', ({ runtime, command, idleMs }) => {
  it(`answers every request of a client that idles ${idleMs / 1000} s between them on one connection`, async () => {
    const server = spawnProcess(command, ['src/cli.ts', 'serve'], {
      DATABASE_PATH: join(dir.path, `${runtime}.db`),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    })
    try {
      const port = listeningPort(await server.waitForLine(/"msg":"listening"/))
      const connection = await rawConnection(port)
      const answers = []
      for (let i = 0; i < 2; i++) {
        if (i > 0) await sleep(idleMs)
        answers.push((await connection.request('GET', '/health')).status)
      }
      expect(answers).toEqual([200, 200])
      expect(connection.isClosed()).toBe(false)
      connection.destroy()
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 40_000)
})
