import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { eq } from 'drizzle-orm'
import { sessions } from '../../../src/db/schema'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

/** Reads a QR the way a phone camera would: from the pixels. */
function decodePng(bytes: Uint8Array): string | undefined {
  const image = PNG.sync.read(Buffer.from(bytes))
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data
}
const decodeDataUrl = (url: string) => {
  expect(url).toMatch(/^data:image\/png;base64,/)
  return decodePng(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'))
}

describe('QR codes as images', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    // A new QR every 300 ms, many refs: the QR rotates within a test and the pairing outlives it.
    t = await startSimulatedGateway({ simulator: { qrRefs: 50 }, config: { qrTimeoutMs: 300 } })
  })
  afterAll(() => t.close())

  const qr = async (id: string, accept?: string, key = t.key) => {
    const response = await t.request(`/v1/session/${id}/qr`, {
      headers: { authorization: `Bearer ${key}`, ...(accept ? { accept } : {}) },
    })
    return response
  }

  it('answers connect with the QR drawn as a PNG that decodes to the payload', async () => {
    const { status, body } = await t.connect({ sessionName: 'drawn' })
    expect(status).toBe(200)
    expect(decodeDataUrl(body.qrImage)).toBe(body.qrCode)
  })

  it('serves the current QR as JSON, PNG or SVG, never cached, and follows its rotation', async () => {
    const { body: connected } = await t.connect({ sessionName: 'rotating' })
    const first = await qr(connected.sessionId)
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe('no-store')
    const json = (await first.json()) as { qrCode: string; qrImage: string; createdAt: string }
    expect(json).toMatchObject({ sessionId: connected.sessionId, qrCode: connected.qrCode })
    expect(decodeDataUrl(json.qrImage)).toBe(connected.qrCode)

    const png = await qr(connected.sessionId, 'image/png')
    expect(png.headers.get('content-type')).toBe('image/png')
    const shown = decodePng(new Uint8Array(await png.arrayBuffer())) ?? ''
    // The ref may have rotated meanwhile; the keys after it are the pairing's own.
    const keys = (payload: string) => payload.slice(payload.indexOf(','))
    expect(keys(shown)).toBe(keys(connected.qrCode))

    const svg = await qr(connected.sessionId, 'text/html, image/svg+xml;q=0.9')
    expect(svg.headers.get('content-type')).toBe('image/svg+xml')
    expect(await svg.text()).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/)

    // WhatsApp offers a new QR (here every 300 ms): the route shows the newest one.
    const rotated = await vi.waitFor(
      async () => {
        const next = (await (await qr(connected.sessionId)).json()) as { qrCode: string }
        expect(next.qrCode).not.toBe(connected.qrCode)
        return next
      },
      { timeout: 5_000, interval: 50 },
    )
    expect(rotated.qrCode).toMatch(/^\S+,\S+/)
  })

  it('serves the current QR and each that replaces it when the session writes no session.qr events', async () => {
    const { status, body: connected } = await t.connect({ sessionName: 'quiet', webhookEvents: ['session.status'] })
    expect(status).toBe(200)
    const current = async () => {
      const response = await qr(connected.sessionId)
      return { status: response.status, body: (await response.json()) as { qrCode: string; error?: string } }
    }
    const first = await current()
    expect(first.status).toBe(200)
    const keys = (payload: string) => payload.slice(payload.indexOf(','))
    expect(keys(first.body.qrCode)).toBe(keys(connected.qrCode))
    const seen = new Set([first.body.qrCode])
    await vi.waitFor(
      async () => {
        const next = await current()
        expect(next.status).toBe(200)
        seen.add(next.body.qrCode)
        expect(seen.size).toBeGreaterThanOrEqual(3)
      },
      { timeout: 5_000, interval: 50 },
    )
    // Nothing of it went to the outbox: the session chose not to have those events.
    const events = await t.get(`/v1/webhooks/deliveries?sessionId=${connected.sessionId}`)
    expect(events.status).toBe(200)
    expect(JSON.stringify(events.body)).not.toContain('session.qr')

    // Kept with the session while it pairs, and only then.
    const row = () => t.gateway.context.db.select().from(sessions).where(eq(sessions.id, connected.sessionId)).get()!
    expect(seen).toContain(row().qrCode)
    expect((await t.request(`/v1/session/disconnect/${connected.sessionId}`, { method: 'DELETE' })).status).toBe(200)
    const gone = await current()
    expect(gone.status).toBe(409)
    expect(gone.body).toMatchObject({ error: 'session_state_conflict', details: { status: 'disconnected' } })
    expect((gone.body as unknown as { message: string }).message).toContain('POST /v1/session/connect')
    expect(row()).toMatchObject({ status: 'disconnected', qrCode: null, qrOfferedAt: null })
  })

  it('answers 409 once the session is paired (a state conflict, not a missing QR), and 404 to other workspaces', async () => {
    const id = await t.pairByQr('paired', '15550007001')
    const paired = await qr(id)
    expect(paired.status).toBe(409)
    expect(await paired.json()).toMatchObject({
      error: 'session_state_conflict',
      message: `Session "${id}" is connected: it is already paired, there is no QR code to scan`,
      details: { status: 'connected' },
    })
    const strangerPaired = await qr(id, undefined, t.addWorkspace('third-team').key)
    expect(strangerPaired.status).toBe(404)

    const { body } = await t.connect({ sessionName: 'mine' })
    const other = t.addWorkspace('other-team')
    const stranger = await qr(body.sessionId, undefined, other.key)
    expect(stranger.status).toBe(404)
    expect(await stranger.json()).toMatchObject({ error: 'not_found' })
  })
})
