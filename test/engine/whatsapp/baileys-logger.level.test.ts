import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ControlApi } from '../../wa-sim/control-api'
import { WhatsAppSimulator } from '../../wa-sim/simulator'
import { spawnProcess } from '../../support/process'
import { tempDir } from '../../support/temp-dir'
import { setTimeout as sleep } from 'node:timers/promises'

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/**
 * The operator's LOG_LEVEL governs Baileys' lines too. Pairing makes Baileys log at warn and
 * error (the 515 restart, presence without a name); a gateway at `silent` prints no log line.
 */
describe('LOG_LEVEL applies to Baileys', () => {
  const dir = tempDir()
  let sim: WhatsAppSimulator
  let control: ControlApi
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
  })
  afterAll(async () => {
    await control.stop()
    await sim.stop()
    dir.cleanup()
  })

  it('prints no log line at LOG_LEVEL=silent while a session pairs and connects', async () => {
    const port = await freePort()
    const gateway = spawnProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      DATABASE_PATH: join(dir.path, 'gateway.db'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      WA_SIMULATOR: control.url,
    })
    try {
      const key = /API key[^:]*: (wag_\w+)/.exec(await gateway.waitForLine(/API key/, 30_000))![1]!
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`http://127.0.0.1:${port}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        })
      await vi.waitFor(async () => expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200), {
        timeout: 15_000,
      })
      const connect = await api('/v1/session/connect', {
        method: 'POST',
        body: JSON.stringify({ sessionName: 'quiet', webhookUrl: 'https://hooks.invalid/q' }),
      })
      const { qrCode } = (await connect.json()) as { qrCode: string }
      sim.scan(qrCode, '15550019001')
      await vi.waitFor(
        async () => {
          const { sessions } = (await (await api('/v1/session/all')).json()) as { sessions: { status: string }[] }
          expect(sessions[0]?.status).toBe('connected')
        },
        { timeout: 15_000, interval: 100 },
      )
      await sleep(1_500) // Baileys' post-login warnings come a moment later
    } finally {
      await gateway.stop()
    }
    const logLines = gateway
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
    expect(logLines).toEqual([])
  }, 60_000)
})
