import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550012001'
const NO_SUCH_GROUP = '120363000000000001@g.us'

/**
 * A group jid WhatsApp does not know: its metadata query answers 404 item-not-found (the
 * simulator as WhatsApp), Baileys throws that before anything is sent. The client's mistake, not
 * WhatsApp failing: 404 naming the group; nothing was handed over, so nothing is recorded.
 */
describe('sending to a group that does not exist', () => {
  let t: SimulatedGateway
  let sessionId: string
  beforeAll(async () => {
    t = await startSimulatedGateway()
    sessionId = await t.pairByQr('sales', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  it('answers 404 not_found naming the group (not 502: WhatsApp is fine), and records nothing', async () => {
    const { status, body } = await t.post('/v1/message/text', { sessionId, phone: NO_SUCH_GROUP, message: 'hello?' })
    expect(body.error).toBe('not_found')
    expect(body.message).toContain(NO_SUCH_GROUP)
    expect(status).toBe(404)
    const { body: list } = await t.get(`/v1/message/all?sessionId=${sessionId}`)
    expect(list.messages).toEqual([])
    expect(t.sim.violations()).toEqual([])
  })

  it('answers 404 for a group the account is not in (WhatsApp forbids its metadata), and records nothing', async () => {
    const theirs = t.sim.createGroup('Not ours', ['15551232001', '15551232002'], '15551232001').jid
    const { status, body } = await t.post('/v1/message/text', { sessionId, phone: theirs, message: 'hello?' })
    expect([status, body.error]).toEqual([404, 'not_found'])
    expect(body.message).toContain(theirs)
    const { body: list } = await t.get(`/v1/message/all?sessionId=${sessionId}`)
    expect(list.messages).toEqual([])
    expect(t.sim.contact('15551232002').inbox()).toEqual([])
  })
})
