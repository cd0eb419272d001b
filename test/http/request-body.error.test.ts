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
    // UTF-8, however spelled, is fine: these reach validation (webhookUrl is missing).
    for (const type of [
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8',
    ]) {
      expect((await post(t, '/v1/session/connect', '{"sessionName":"a"}', type)).status).toBe(400)
    }
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
