// WhatsApp's servers prove who they are in the Noise handshake with a certificate chain signed
// by a pinned root key. Baileys rc14 checks that chain with a Curve.verify that passes any
// signature; the gateway installs a strict one (engine/whatsapp/socket/signature-checks.ts).
import { afterEach, describe, expect, it } from 'vitest'
import { type SimulatedGateway, startSimulatedGateway } from '../../support/simulated-gateway'

describe('the server’s certificate chain', () => {
  let t: SimulatedGateway | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  it('is refused when the pinned root key did not sign it: no QR, nothing to scan', async () => {
    t = await startSimulatedGateway({ simulator: { impostor: true } })
    const { status, body } = await t.connect({ sessionName: 'impostor' })
    expect(status).toBe(502)
    expect(body).toMatchObject({ error: 'upstream_error', details: { status: 'expired' } })
    expect(body.qrCode).toBeUndefined()
    expect(t.sim.pendingPairings()).toEqual([])
  })

  it('is accepted when it did, on the same code path', async () => {
    t = await startSimulatedGateway()
    const { status, body } = await t.connect({ sessionName: 'genuine' })
    expect(status).toBe(200)
    expect(body.qrCode).toEqual(expect.any(String))
  })
})
