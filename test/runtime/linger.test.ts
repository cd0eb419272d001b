import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LINGER_BOUNDS } from '../../src/runtime/linger'
import { bin, listeningPort, spawnProcess, type Spawned } from '../support/process'
import { sendForEver, writeWholeThenRead } from '../support/raw-http'
import { tempDir } from '../support/temp-dir'

const dir = tempDir()
afterAll(() => dir.cleanup())

const BODY_LIMIT = 200_000
/** Announced by the clients that never stop: under Bun's own cap (128 MB), never reached. */
const ENDLESS = 100_000_000
const head = (key: string, length: number | string) =>
  `POST /v1/session/connect HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${key}\r\n` +
  `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n`

/**
 * A body over BODY_LIMIT_BYTES is refused (413) before it is read. Closing the connection over
 * the unread rest makes the kernel reset it, and the reset throws away the answer in the
 * receive buffer of a client that writes the whole body before reading. The gateway, started as
 * operators start it, must linger (read and drop the rest, within bounds) and then close.
 */
describe.each([
  { runtime: 'Node', command: bin('tsx') },
  { runtime: 'Bun', command: bin('bun') },
])('closing over a refused body under $runtime', ({ runtime, command }) => {
  let server: Spawned
  let port: number
  let key: string
  beforeAll(async () => {
    server = spawnProcess(command, ['src/cli.ts', 'serve'], {
      DATABASE_PATH: join(dir.path, `${runtime}.db`),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
    })
    key = /wag_\w+/.exec(await server.waitForLine(/API key \(shown only this once/))![0]
    port = listeningPort(await server.waitForLine(/"msg":"listening"/))
  }, 40_000)
  afterAll(async () => {
    expect(await server.stop()).toBe(0)
  })

  it('answers 413 every time to a client that writes a 4 MB body whole before reading', async () => {
    const body = Buffer.alloc(4_000_000, 'x')
    const request = Buffer.concat([Buffer.from(head(key, body.length)), body])
    const missed: string[] = []
    for (let round = 0; round < 40; round++) {
      const status = (await writeWholeThenRead(port, request)).slice(0, 12)
      if (status !== 'HTTP/1.1 413') missed.push(`round ${round}: ${status || 'answer lost'}`)
    }
    expect(missed).toEqual([])
  }, 60_000)

  it('cuts a client that sends as fast as it can for ever at the byte bound', async () => {
    const { ms, bytes } = await sendForEver(port, head(key, ENDLESS), { chunk: 64 * 1024, everyMs: 0 })
    expect(ms).toBeLessThan(LINGER_BOUNDS.ms + 3_000)
    // What the kernel buffers on both sides comes on top of what the server read.
    expect(bytes).toBeLessThan(LINGER_BOUNDS.bytes + 32 * 1024 * 1024)
  }, 20_000)

  it('cuts a client that trickles a body for ever at the time bound', async () => {
    const { ms } = await sendForEver(port, head(key, ENDLESS), { chunk: 1_000, everyMs: 50 })
    expect(ms).toBeGreaterThan(LINGER_BOUNDS.ms - 200)
    expect(ms).toBeLessThan(LINGER_BOUNDS.ms + 3_000)
  }, 20_000)
})
