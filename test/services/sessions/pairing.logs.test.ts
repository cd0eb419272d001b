import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/logger'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

interface Line {
  level: number
  msg: string
  lib?: string
  sessionId?: string
  fullErrorNode?: { attrs?: { code?: string } }
}

const DEBUG = 20
const INFO = 30
const WARN = 40

/**
 * Operators alert on error lines: a pairing, the commonest thing the gateway does, must log none.
 * The gateway's real logger at debug captures every line, Baileys' included, through a QR pairing
 * and a pairing-code pairing with the real client against the simulator.
 */
describe('the log of a pairing', () => {
  const written: string[] = []
  const lines = () => written.map((text) => JSON.parse(text) as Line)
  let t: SimulatedGateway
  let sessionIds: string[]
  beforeAll(async () => {
    t = await startSimulatedGateway({
      logger: createLogger('debug', { write: (text: string) => void written.push(text) }),
    })
    const byQr = await t.pairByQr('sales', '15550002001')
    const { body } = await t.connect({ sessionName: 'support', mode: 'pairing', pairingNumber: '15550002002' })
    await t.sim.enterPairingCode('15550002002', body.pairingCode)
    await t.waitForStatus(body.sessionId, 'connected')
    sessionIds = [byQr, body.sessionId]
  })
  afterAll(() => t.close())

  it('has no error line and no warning from Baileys', () => {
    const mine = lines().filter((line) => line.sessionId && sessionIds.includes(line.sessionId))
    expect(
      mine.filter((line) => line.level >= WARN).map((line) => `${line.level} ${line.lib ?? ''} ${line.msg}`),
    ).toEqual([])
  })

  it('keeps WhatsApp’s restart after pairing (stream error 515) as a debug line, and says it in plain words at info', () => {
    for (const sessionId of sessionIds) {
      const ofSession = lines().filter((line) => line.sessionId === sessionId)
      const streamErrors = ofSession.filter((line) => line.msg === 'stream errored out')
      expect(streamErrors.map((line) => [line.level, line.fullErrorNode?.attrs?.code])).toEqual([[DEBUG, '515']])
      // What an operator reading at info sees of it: one line, no "closed", no "Stream Errored".
      // By its code or its words: random key bytes in Baileys' lines may spell "515" in base64.
      const restart = ofSession.filter(
        (line) => line.level >= INFO && ((line as { code?: number }).code === 515 || line.msg.includes('515')),
      )
      expect(restart).toEqual([
        {
          level: INFO,
          time: expect.any(Number),
          sessionId,
          code: 515,
          msg: 'linked to the phone; reconnecting, as WhatsApp asks after every pairing',
        },
      ])
      expect(ofSession.filter((line) => line.level >= INFO && /error|closed/i.test(JSON.stringify(line)))).toEqual([])
    }
  })
})
