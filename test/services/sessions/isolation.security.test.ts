import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

describe('sessions are scoped to their workspace', () => {
  let t: SimulatedGateway
  let other: { key: string }
  let id: string
  beforeAll(async () => {
    t = await startSimulatedGateway()
    other = t.addWorkspace('other-team')
    id = await t.pairByQr('private', '15550005001')
  })
  afterAll(() => t.close())

  it('does not list them to another workspace', async () => {
    expect(await t.listSessions(other.key)).toEqual([])
    expect((await t.listSessions()).map((s) => s.sessionId)).toEqual([id])
  })

  it('lets another workspace use the same session name', async () => {
    const response = await t.connect({ sessionName: 'private' }, other.key)
    expect(response.status).toBe(200)
    expect(response.body.sessionId).not.toBe(id)
  })
})

describe('concurrent connects with one name', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway()
  })
  afterAll(() => t.close())

  it('create exactly one session; the others get 409', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => t.connect({ sessionName: 'race' })))
    const statuses = results.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409])
    const sessions = await t.listSessions()
    expect(sessions).toHaveLength(1)
    expect(sessions[0]!.sessionId).toBe(results.find((r) => r.status === 200)!.body.sessionId)
  })
})
