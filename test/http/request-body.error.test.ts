import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../support/gateway'

const post = (t: TestGateway, path: string, body: string, contentType = 'application/json') =>
  t.request(path, { method: 'POST', headers: { 'content-type': contentType }, body })

async function read(response: Response) {
  const text = await response.text()
  return { status: response.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) as any }
}

describe('request bodies the gateway cannot use', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway()
  })
  afterAll(() => t.close())

  it('says why JSON is malformed, briefly, under (body)', async () => {
    const { status, body } = await read(await post(t, '/v1/session/connect', '{"sessionName": "x",}'))
    expect(status).toBe(400)
    expect(body.error).toBe('validation_error')
    expect(body.details.fields).toHaveLength(1)
    expect(body.details.fields[0]).toEqual({ path: '(body)', message: expect.stringMatching(/^invalid JSON: \S/) })
    expect(body.details.fields[0].message.length).toBeLessThan(120)
  })

  it('does not echo a long malformed body in the JSON error', async () => {
    const { status, bytes, body } = await read(await post(t, '/v1/session/connect', `{"a": ${'x'.repeat(50_000)}}`))
    expect(status).toBe(400)
    expect(body.details.fields[0]).toEqual({ path: '(body)', message: "invalid JSON: Unexpected token 'x'" })
    expect(bytes).toBeLessThan(1_000)
  })

  it('refuses JSON in a charset other than UTF-8 with 415', async () => {
    const latin1 = await read(
      await post(t, '/v1/session/connect', '{"sessionName":"caf\xe9"}', 'application/json; charset=latin1'),
    )
    expect(latin1.status).toBe(415)
    expect(latin1.body).toMatchObject({ error: 'unsupported_media_type', message: expect.stringMatching(/UTF-8/) })
    // UTF-8, however spelled, is fine: these reach validation (the webhookUrl is no URL).
    for (const type of [
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8',
    ]) {
      const answer = await read(await post(t, '/v1/session/connect', '{"sessionName":"a","webhookUrl":"nope"}', type))
      expect(answer.status).toBe(400)
      expect(answer.body.details.fields).toEqual([{ path: 'webhookUrl', message: expect.any(String) }])
    }
  })

  it('says "is required" of every missing field, whatever its type, its alias or its own error text', async () => {
    const text = await read(await post(t, '/v1/message/text', '{}'))
    expect(text.status).toBe(400)
    expect(text.body.details.fields).toEqual([
      { path: 'sessionId', message: 'is required' },
      { path: 'phone', message: 'is required' },
      { path: 'message', message: 'is required' },
    ])
    // A URL field (its own error text is about the scheme) and an array field.
    const connect = await read(await post(t, '/v1/session/connect', '{}'))
    expect(connect.body.details.fields).toEqual([{ path: 'sessionName', message: 'is required' }])
    const webhook = await read(await post(t, '/v1/webhooks', '{}'))
    expect(webhook.body.details.fields).toEqual([{ path: 'url', message: 'is required' }])
    const check = await read(await post(t, '/v1/contact/check', '{"sessionId": 7}'))
    expect(check.body.details.fields).toEqual([
      { path: 'sessionId', message: expect.not.stringMatching(/required/) },
      { path: 'phones', message: 'is required' },
    ])
    // Nested: a button without its label (buttonText or its alias text).
    const buttons = await read(
      await post(
        t,
        '/v1/message/buttons',
        JSON.stringify({ sessionId: 's', phone: '15551230001', message: 'pick', buttons: [{ buttonId: 'a' }] }),
      ),
    )
    expect(buttons.body.details.fields).toEqual([{ path: 'buttons.0.buttonText', message: 'is required' }])
  })

  it('answers a body with no Content-Type with the 415 a wrong one gets, and so a missing body', async () => {
    const wrong = await read(await post(t, '/v1/message/text', '{"sessionId":"s"}', 'text/plain'))
    expect(wrong.status).toBe(415)
    expect(wrong.body.message).toMatch(/send Content-Type: application\/json \(got "text\/plain"\)/)
    const none = await read(
      await t.request('/v1/message/text', { method: 'POST', body: new Blob(['{"sessionId":"s"}']) }),
    )
    expect(none.status).toBe(415)
    expect(none.body).toMatchObject({
      error: 'unsupported_media_type',
      message: 'Request bodies are JSON: send Content-Type: application/json (got none)',
    })
    const empty = await read(await t.request('/v1/message/text', { method: 'POST' }))
    expect(empty.status).toBe(415)
    expect(empty.body.message).toBe(none.body.message)
    // A route that takes no body is not refused for an empty one without a type (curl -X POST).
    const retry = await t.request('/v1/webhooks/deliveries/whd_unknown/retry', {
      method: 'POST',
      body: new Uint8Array(),
    })
    expect(retry.status).toBe(404)
  })

  it('keeps the error small when a huge value or key is invalid (names the field and the rule)', async () => {
    const hugeKey = await read(
      await post(t, '/v1/session/connect', JSON.stringify({ ['k'.repeat(900_000)]: 1, sessionName: 'a' })),
    )
    expect(hugeKey.status).toBe(400)
    expect(hugeKey.bytes).toBeLessThan(2_000)

    const hugePhone = await read(
      await post(t, '/v1/contact/check', JSON.stringify({ sessionId: 'ses_x', phones: ['9'.repeat(900_000)] })),
    )
    expect(hugePhone.status).toBe(400)
    expect(hugePhone.bytes).toBeLessThan(2_000)
    expect(hugePhone.body.details.fields[0].path).toBe('phones.0')

    const hugeName = await read(
      await post(
        t,
        '/v1/session/connect',
        JSON.stringify({ sessionName: 'n'.repeat(900_000), webhookUrl: 'https://hooks.invalid' }),
      ),
    )
    expect(hugeName.status).toBe(400)
    expect(hugeName.bytes).toBeLessThan(2_000)
    expect(hugeName.body.details.fields[0].path).toBe('sessionName')
  })

  it('lists at most 20 field errors and says how many more there are', async () => {
    const phones = Array.from({ length: 50 }, (_, i) => `bad-${i}`)
    const { status, body } = await read(
      await post(t, '/v1/contact/check', JSON.stringify({ sessionId: 'ses_x', phones })),
    )
    expect(status).toBe(400)
    expect(body.details.fields).toHaveLength(20)
    expect(body.details.omittedFields).toBe(30)
    expect(body.message).toMatch(/; phones\.2: .*and 47 more$/) // the message names three
  })
})
