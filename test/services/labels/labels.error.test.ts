import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const SHOP = '15550047001'
const PERSONAL = '15550047002'
const FRIEND = '15551470001'

/**
 * What a client may get wrong with labels: another workspace's session (404, nothing asked of
 * WhatsApp), unknown labels and messages (404), names and colours outside WhatsApp's bounds and
 * a 21st label (400), and a personal account (409 not_business_account). The simulated phone
 * records a violation for any label patch it would refuse: there must be none.
 */
describe('labels: isolation, bounds and account type', () => {
  let t: SimulatedGateway
  let shop: string
  let personal: string

  const call = async (method: string, path: string, body?: unknown, key = t.key) => {
    const response = await t.request(path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const create = (name: string, color = 0, sessionId = shop) => call('POST', '/v1/label', { sessionId, name, color })
  const fieldsOf = (body: any) => body.details.fields.map((f: { path: string }) => f.path)

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(FRIEND)
    shop = await t.pairByQr('shop', SHOP)
    personal = await t.pairByQr('personal', PERSONAL)
    t.sim.setProfile(SHOP, { business: { description: 'Bicycles' } })
    await t.sim.account(SHOP).waitForAppStateKey()
    await t.sim.account(PERSONAL).waitForAppStateKey()
  }, 60_000)
  afterAll(async () => {
    await t.close()
  })

  it('answers another workspace’s session 404 on every label route, asking nothing of WhatsApp', async () => {
    expect((await create('Mine')).status).toBe(200)
    const other = t.addWorkspace('labels-other').key
    const routes = [
      ['GET', `/v1/label/all?sessionId=${shop}`, undefined],
      ['POST', '/v1/label', { sessionId: shop, name: 'Theirs', color: 1 }],
      ['PATCH', '/v1/label/1', { sessionId: shop, name: 'Theirs' }],
      ['DELETE', `/v1/label/1?sessionId=${shop}`, undefined],
      ['POST', '/v1/label/1/chat', { sessionId: shop, phone: FRIEND }],
      ['DELETE', `/v1/label/1/chat?sessionId=${shop}&phone=${FRIEND}`, undefined],
      ['POST', '/v1/label/1/message', { sessionId: shop, messageId: 'X' }],
      ['DELETE', `/v1/label/1/message?sessionId=${shop}&messageId=X`, undefined],
    ] as const
    for (const [method, path, body] of routes) {
      const answer = await call(method, path, body, other)
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.body.error).toBe('not_found')
    }
    expect(
      t.sim
        .account(SHOP)
        .labels.list()
        .map((label) => label.name),
    ).toEqual(['Mine'])
  })

  it('answers 404 for a label or a message the session does not have', async () => {
    expect((await call('PATCH', '/v1/label/99', { sessionId: shop, name: 'x' })).status).toBe(404)
    expect((await call('DELETE', `/v1/label/99?sessionId=${shop}`)).status).toBe(404)
    expect((await call('POST', '/v1/label/99/chat', { sessionId: shop, phone: FRIEND })).status).toBe(404)
    const message = await call('POST', '/v1/label/1/message', { sessionId: shop, messageId: '3EB0NOSUCHMESSAGE' })
    expect(message.status).toBe(404)
    expect(message.body.message).toContain('3EB0NOSUCHMESSAGE')
    expect(t.sim.account(SHOP).labels.list()).toEqual([{ id: '1', name: 'Mine', color: 0, chats: [], messages: [] }])
  })

  it('refuses names, colours and ids outside WhatsApp’s bounds with 400, naming the field', async () => {
    const cases = [
      [{ sessionId: shop, name: 'x'.repeat(101), color: 1 }, 'name'],
      [{ sessionId: shop, name: '   ', color: 1 }, 'name'],
      [{ sessionId: shop, name: 'a\u0000b', color: 1 }, 'name'],
      [{ sessionId: shop, name: 'Ok', color: 20 }, 'color'],
      [{ sessionId: shop, name: 'Ok', color: -1 }, 'color'],
      [{ sessionId: shop, name: 'Ok', color: 1.5 }, 'color'],
      [{ sessionId: shop, name: 'Ok' }, 'color'],
    ] as const
    for (const [body, field] of cases) {
      const answer = await call('POST', '/v1/label', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(fieldsOf(answer.body)).toContain(field)
    }
    // 100 characters (astral ones count once) is the most a name may have.
    expect((await create('🚲'.repeat(100), 2)).status).toBe(200)
    expect((await call('PATCH', '/v1/label/1', { sessionId: shop })).status).toBe(400)
    expect((await call('PATCH', '/v1/label/abc', { sessionId: shop, name: 'x' })).status).toBe(400)
    expect((await call('POST', '/v1/label/1/chat', { sessionId: shop, phone: 'not a phone' })).status).toBe(400)
  })

  it('keeps at most 20 labels, creates at once included: each its own id, the 21st is 400, nothing more reaches the phone', async () => {
    const have = t.sim.account(SHOP).labels.list().length
    const answers = await Promise.all(Array.from({ length: 22 - have }, (_, i) => create(`Label ${i}`)))
    const made = answers.filter((a) => a.status === 200).map((a) => a.body.label.id)
    expect(made).toHaveLength(20 - have)
    expect(new Set(made).size).toBe(made.length)
    const refused = answers.filter((a) => a.status !== 200)
    expect(refused.map((a) => a.status)).toEqual([400, 400])
    expect(refused[0]!.body.message).toContain('the most WhatsApp Business keeps')
    expect(t.sim.account(SHOP).labels.list()).toHaveLength(20)
    expect((await create('One too many')).status).toBe(400)
  })

  it('answers a personal account 409 not_business_account, sending no patch', async () => {
    const answer = await create('Personal', 1, personal)
    expect(answer.status).toBe(409)
    expect(answer.body.error).toBe('not_business_account')
    const onChat = await call('POST', '/v1/label/1/chat', { sessionId: personal, phone: FRIEND })
    expect(onChat.body.error).toBe('not_business_account')
    // Listing is the gateway's own store: a personal account simply has none.
    expect(await call('GET', `/v1/label/all?sessionId=${personal}`)).toEqual({
      status: 200,
      body: { sessionId: personal, labels: [] },
    })
    expect(t.sim.account(PERSONAL).labels.list()).toEqual([])
    expect(t.sim.violations()).toEqual([])
  })

  it('answers an offline session 409 session_not_connected', async () => {
    expect((await call('DELETE', `/v1/session/disconnect/${shop}`)).status).toBe(200)
    const { status, body } = await call('PATCH', '/v1/label/1', { sessionId: shop, name: 'Offline' })
    expect(status).toBe(409)
    expect(body.error).toBe('session_not_connected')
  })
})
