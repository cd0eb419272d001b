import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { tempDir } from '../../support/temp-dir'

const SESSIONS = 6
const BOUND = Number(process.env.RESTORE_TEST_BOUND ?? 2)

/** After a restart the stored sessions reconnect a few at a time, not all in the same instant. */
describe('restoring sessions after a restart', () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let first: SimulatedGateway
  let second: SimulatedGateway | undefined
  const ids: string[] = []

  beforeAll(async () => {
    first = await startSimulatedGateway({ databasePath, plan: 'paid' })
    for (let i = 0; i < SESSIONS; i++) ids.push(await first.pairByQr(`restore-${i}`, `1555000600${i}`))
  })
  afterAll(async () => {
    await second?.stopGateway()
    await first.close()
    dir.cleanup()
  })

  it(`reconnects every session with at most RESTORE_CONCURRENCY (${BOUND}) logging in at once`, async () => {
    await first.stopGateway()
    first.sim.loginStats({ reset: true })
    second = await startSimulatedGateway({
      databasePath,
      reuse: { sim: first.sim, control: first.control },
      config: { restoreConcurrency: BOUND },
    })
    // start() returned with every session marked, before they are all back.
    expect((await second.listSessions()).filter((s) => s.status === 'connecting').length).toBeGreaterThan(0)
    for (const id of ids) await second.waitForStatus(id, 'connected', 20_000)
    const stats = first.sim.loginStats()
    expect(stats.completed).toBeGreaterThanOrEqual(SESSIONS)
    expect(stats.peak).toBeGreaterThan(0)
    expect(stats.peak).toBeLessThanOrEqual(BOUND)
  })
})
