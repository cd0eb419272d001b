import { hc } from 'hono/client'
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest'
import type { AppType } from '../../src'
import { startTestGateway, type TestGateway } from '../support/gateway'

/**
 * hc<AppType> keeps inferring paths, params, bodies and responses from the route declarations.
 * `npx tsc --noEmit -p .` checks this file: the @ts-expect-error lines fail the build if a
 * wrong call starts to compile, the expectTypeOf lines if an inferred type changes.
 */
describe('hc<AppType>()', () => {
  let t: TestGateway
  let client: ReturnType<typeof hc<AppType>>
  beforeAll(async () => {
    t = await startTestGateway()
    client = hc<AppType>('http://gateway.test', {
      fetch: (input: string | URL | Request, init?: RequestInit) => t.gateway.app.request(input, init),
      headers: { authorization: `Bearer ${t.key}` },
    })
  })
  afterAll(() => t.close())

  it('infers bodies, params and responses', async () => {
    const workspace = await client.v1.workspace.$get()
    expect(workspace.status).toBe(200)
    if (workspace.status === 200) {
      const body = await workspace.json()
      expectTypeOf(body.plan).toEqualTypeOf<'free' | 'paid'>()
      expect(body.name).toBe('test')
    }

    const update = await client.v1.session.update[':id'].$put({
      param: { id: 'ses_missing' },
      json: { autoRejectCalls: true },
    })
    expect(update.status).toBe(404)
    if (update.status === 404) expectTypeOf((await update.json()).error).toExtend<string>()

    const text = await client.v1.message.text.$post({
      json: { sessionId: 'ses_missing', phone: '+1 555 123 0001', message: 'hi' },
      header: {},
    })
    expect(text.status).toBe(404)
    if (text.status === 200) expectTypeOf((await text.json()).messageId).toEqualTypeOf<string>()

    const check = await client.v1.contact.check.$post({ json: { sessionId: 'ses_missing', phones: ['15551230001'] } })
    if (check.status === 200) expectTypeOf((await check.json()).summary.total).toEqualTypeOf<number>()
    expect(check.status).toBe(404)
  })

  it('accepts connect without `mode` and rejects bodies the schema rejects (compile time)', () => {
    const typeOnly = () => {
      // `mode` has a default, so the input form leaves it out.
      void client.v1.session.connect.$post({ json: { sessionName: 's', webhookUrl: 'https://hooks.invalid' } })
      // @ts-expect-error sessionName is required
      void client.v1.session.connect.$post({ json: { webhookUrl: 'https://hooks.invalid' } })
      // @ts-expect-error sessionId is required
      void client.v1.message.text.$post({ json: { phone: '1', message: 'x' }, header: {} })
      // @ts-expect-error the path parameter is `session_id`
      void client.v1.session.disconnect[':session_id'].$delete({ param: { id: 'x' } })
    }
    expect(typeOnly).toBeTypeOf('function')
  })
})
