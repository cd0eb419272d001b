import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { resolveConfig } from '../../../src/config'

describe('POST /v1/session/connect refuses bad input', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({
      config: {
        plans: {
          free: { interactiveMessages: false, messageWebhooks: false, dailyContactChecks: 20, maxSessions: 100 },
          paid: { interactiveMessages: true, messageWebhooks: true, dailyContactChecks: 5000, maxSessions: 100 },
        },
      },
    })
  })
  afterAll(() => t.close())

  const expectFieldError = (response: { status: number; body: any }, path: string, message: RegExp) => {
    expect(response.status).toBe(400)
    expect(response.body.error).toBe('validation_error')
    expect(response.body.details.fields).toEqual(
      expect.arrayContaining([{ path, message: expect.stringMatching(message) }]),
    )
  }

  it('needs a pairingNumber in pairing mode, with 6 to 15 digits', async () => {
    expectFieldError(
      await t.connect({ sessionName: 'p', mode: 'pairing' }),
      'pairingNumber',
      /required when mode is "pairing"/,
    )
    expectFieldError(
      await t.connect({ sessionName: 'p', mode: 'pairing', pairingNumber: '+1 555' }),
      'pairingNumber',
      /digits/,
    )
  })

  it('rejects a missing name, an unknown mode and a misspelled field', async () => {
    expectFieldError(await t.connect({ sessionName: '' }), 'sessionName', /empty/)
    expectFieldError(await t.connect({ sessionName: 'x', mode: 'sms' }), 'mode', /qr|pairing/)
    expectFieldError(await t.connect({ sessionName: 'x', webhookURL: 'https://a.example' }), '(body)', /webhookURL/)
  })

  it('requires an https webhook that is not a private address', async () => {
    expectFieldError(
      await t.connect({ sessionName: 'x', webhookUrl: 'http://hooks.invalid/' }),
      'webhookUrl',
      /must use https \(http:\/\/ only when the operator sets WEBHOOK_ALLOW_HTTP=true/,
    )
    expectFieldError(
      await t.connect({ sessionName: 'x', webhookUrl: 'https://127.0.0.1/hook' }),
      'webhookUrl',
      /private.*only when the operator sets ALLOW_PRIVATE_ADDRESSES=true/,
    )
    expectFieldError(await t.connect({ sessionName: 'x', webhookUrl: 'https://[::1]/hook' }), 'webhookUrl', /private/)
    expectFieldError(
      await t.connect({ sessionName: 'x', webhookUrl: 'https://10.1.2.3/hook' }),
      'webhookUrl',
      /private/,
    )
    expectFieldError(
      await t.connect({ sessionName: 'x', webhookUrl: 'https://localhost:8443/hook' }),
      'webhookUrl',
      /private/,
    )
    expectFieldError(await t.connect({ sessionName: 'x', webhookUrl: 'not a url' }), 'webhookUrl', /URL/)
  })

  it('answers 403 plan_required for message webhooks the plan lacks, and defaults them off', async () => {
    const refused = await t.connect({ sessionName: 'quiet', webhookMessages: true })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ error: 'plan_required', details: { feature: 'webhookMessages' } })
    const accepted = await t.connect({ sessionName: 'quiet' })
    expect(accepted.status).toBe(200)
    expect(accepted.body.webhookMessages).toBe(false)
  })

  it('leaves nothing behind for refused requests', async () => {
    await t.connect({ sessionName: 'refused-1', mode: 'pairing' })
    await t.connect({ sessionName: 'refused-2', webhookUrl: 'http://hooks.invalid/' })
    await t.connect({ sessionName: 'refused-3', webhookMessages: true })
    const names = (await t.listSessions()).map((s) => s.sessionName)
    expect(names.filter((name) => name.startsWith('refused-'))).toEqual([])
  })

  it('answers 403 plan_required when an update asks for message webhooks', async () => {
    const { body } = await t.connect({ sessionName: 'to-update' })
    const response = await t.request(`/v1/session/update/${body.sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhookMessages: true }),
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: 'plan_required' })
  })

  it('answers 409 session_name_taken while a session with the name is pending', async () => {
    expect((await t.connect({ sessionName: 'taken' })).status).toBe(200)
    const again = await t.connect({ sessionName: 'taken' })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: 'session_name_taken', details: { status: 'pending' } })
  })
})

describe('request errors keep the Error object shape', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({ config: { bodyLimitBytes: 2048 } })
  })
  afterAll(() => t.close())

  const post = (body: string, contentType = 'application/json') =>
    t.request('/v1/session/connect', { method: 'POST', headers: { 'content-type': contentType }, body })

  it('answers 400 for malformed JSON', async () => {
    const response = await post('{"sessionName": "a",')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: 'validation_error',
      message: 'The request body is not valid JSON',
      details: { fields: [{ path: '(body)', message: expect.stringMatching(/^invalid JSON: \S/) }] },
    })
  })

  it('answers 400 naming the field for a wrong type', async () => {
    const response = await post(JSON.stringify({ sessionName: 42, webhookUrl: 'https://hooks.invalid' }))
    expect(response.status).toBe(400)
    const body = (await response.json()) as any
    expect(body.details.fields).toEqual([{ path: 'sessionName', message: expect.stringMatching(/expected string/) }])
  })

  it('answers 415 for a body that is not JSON, naming the Content-Type to send', async () => {
    const response = await post('sessionName=a', 'application/x-www-form-urlencoded')
    expect(response.status).toBe(415)
    const body = (await response.json()) as any
    expect(body.error).toBe('unsupported_media_type')
    expect(body.message).toMatch(/Content-Type: application\/json/)
  })

  it('answers 413 for a body over the limit', async () => {
    const response = await post(JSON.stringify({ sessionName: 'a'.repeat(5000), webhookUrl: 'https://hooks.invalid' }))
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: 'payload_too_large', details: { limitBytes: 2048 } })
  })

  it('answers 404 with an Error object for an unknown route, and a request id on every answer', async () => {
    const response = await t.request('/v1/nothing-here')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'not_found', message: 'No such route', details: {} })
    expect(response.headers.get('x-request-id')).toMatch(/\S{8,}/)
  })
})

describe('session caps per plan', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({
      config: { plans: { ...resolveConfig().plans, free: { ...resolveConfig().plans.free, maxSessions: 2 } } },
    })
  })
  afterAll(() => t.close())

  it('refuses a connect over the plan’s cap of live sessions (403, limit in details), and frees a place on disconnect', async () => {
    const first = await t.connect({ sessionName: 'one' })
    const second = await t.connect({ sessionName: 'two' })
    expect([first.status, second.status]).toEqual([200, 200])
    const third = await t.connect({ sessionName: 'three' })
    expect(third.status).toBe(403)
    expect(third.body).toMatchObject({
      error: 'plan_required',
      details: { feature: 'sessions', plan: 'free', limit: 2, live: 2 },
    })
    expect((await t.listSessions()).map((s) => s.sessionName).sort()).toEqual(['one', 'two'])

    await t.request(`/v1/session/disconnect/${first.body.sessionId}`, { method: 'DELETE' })
    expect((await t.connect({ sessionName: 'three' })).status).toBe(200)
    // Re-pairing a finished session counts like a new one.
    expect((await t.connect({ sessionName: 'one' })).status).toBe(403)
  })
})
