import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

/**
 * WhatsApp may answer a number in another form than it was asked: Brazilian mobiles are
 * registered with or without the ninth digit. The answer must still be matched to the number
 * as the client sent it, never reported as not existing.
 */
describe('contact checks when WhatsApp answers another form of the number', () => {
  let t: SimulatedGateway
  let sessionId: string
  beforeAll(async () => {
    t = await startSimulatedGateway()
    // Asked with the ninth digit, registered (and answered) without it.
    t.sim.addContact('5511912345678', { answerAs: '551112345678' })
    t.sim.addContact('15557200001')
    sessionId = await t.pairByQr('brazil', '15550017001')
  })
  afterAll(() => t.close())

  it('reports the number as existing, with the JID WhatsApp gave, echoing the phone as sent', async () => {
    const { status, body } = await t.post('/v1/contact/check', {
      sessionId,
      phones: ['+55 11 91234-5678', '15557200001', '5511900000000'],
    })
    expect(status).toBe(200)
    expect(body.results).toEqual([
      {
        phone: '+55 11 91234-5678',
        exists: true,
        jid: '551112345678@s.whatsapp.net',
        lid: expect.stringMatching(/@lid$/),
      },
      { phone: '15557200001', exists: true, jid: '15557200001@s.whatsapp.net', lid: expect.stringMatching(/@lid$/) },
      { phone: '5511900000000', exists: false },
    ])
    expect(body.summary).toEqual({ total: 3, exists: 2, notExists: 1 })
  })
})
