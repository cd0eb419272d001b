import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

describe('PUT /v1/session/update/{id}', () => {
  let t: SimulatedGateway
  let id: string
  const put = async (sessionId: string, body: unknown, key = t.key) => {
    const response = await t.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }

  beforeAll(async () => {
    t = await startSimulatedGateway({ simulator: { contacts: ['15557000001'] } })
    id = await t.pairByQr('front-desk', '15550002001')
    expect((await t.connect({ sessionName: 'other' })).status).toBe(200)
  })
  afterAll(() => t.close())

  it('changes each field and answers the updated session', async () => {
    expect((await put(id, { sessionName: 'reception' })).body).toMatchObject({
      sessionId: id,
      sessionName: 'reception',
    })
    expect((await put(id, { webhookUrl: 'https://hooks.invalid/hook' })).body.webhookUrl).toBe(
      'https://hooks.invalid/hook',
    )
    expect((await put(id, { webhookMessages: false })).body.webhookMessages).toBe(false)
    const last = await put(id, { autoRejectCalls: true })
    expect(last.status).toBe(200)
    expect(last.body).toMatchObject({
      sessionName: 'reception',
      webhookUrl: 'https://hooks.invalid/hook',
      webhookMessages: false,
      autoRejectCalls: true,
      status: 'connected',
      connected: true,
    })
    expect((await t.listSessions()).find((s) => s.sessionId === id)).toMatchObject({
      sessionName: 'reception',
      autoRejectCalls: true,
    })
  })

  it('rejects incoming calls once autoRejectCalls is on', async () => {
    const callId = t.sim.contact('15557000001').call()
    expect(await t.sim.account('15550002001').waitForCallResponse(callId)).toBe('reject')
  })

  it('needs at least one field', async () => {
    const response = await put(id, {})
    expect(response.status).toBe(400)
    expect(response.body.message).toMatch(
      /at least one of sessionName, webhookUrl, webhookMessages, webhookEvents, autoRejectCalls/,
    )
  })

  it('validates each field', async () => {
    expect((await put(id, { webhookUrl: 'ftp://hooks.invalid' })).status).toBe(400)
    expect((await put(id, { webhookUrl: 'https://192.168.1.10/x' })).body.details.fields[0].path).toBe('webhookUrl')
    expect((await put(id, { autoRejectCalls: 'yes' })).body.details.fields[0].path).toBe('autoRejectCalls')
    expect((await put(id, { sessionName: '' })).status).toBe(400)
    expect((await put(id, { name: 'typo' })).status).toBe(400)
  })

  it('answers 409 on a name clash within the workspace', async () => {
    const response = await put(id, { sessionName: 'other' })
    expect(response.status).toBe(409)
    expect(response.body.error).toBe('session_name_taken')
  })

  it('answers 404 for an unknown id', async () => {
    const response = await put('ses_doesnotexist', { autoRejectCalls: false })
    expect(response.status).toBe(404)
    expect(response.body.error).toBe('not_found')
  })
})
