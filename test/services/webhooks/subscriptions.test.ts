import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { HostResolver } from '../../../src/net/host-resolver'
import { jsonBody, startTestGateway, type TestGateway } from '../../support/gateway'
import { createSessionRow } from '../../support/session-row'

/** Made-up names only: nothing here emits an event to them (the sessions never connect). */
const resolver = vi.fn<HostResolver>(async (host) => {
  if (host === 'inside.hooks.test') return [{ address: '10.1.2.3', family: 4 }]
  throw new Error(`ENOTFOUND ${host}`)
})

const HOOK = 'https://hooks.invalid/extra'
const PLANS = {
  free: { interactiveMessages: false, messageWebhooks: false, dailyContactChecks: 20, maxSessions: 100 },
  paid: { interactiveMessages: true, messageWebhooks: true, dailyContactChecks: 5000, maxSessions: 100 },
}

/**
 * The webhook routes of a session and of the workspace, through the API: exact answers (an n8n
 * trigger node creates and deletes its own), secrets shown once, the URL guard, the cap of 10
 * held under concurrent creates, bounds, and other workspaces' ids answering 404.
 */
describe('webhooks besides webhookUrl', () => {
  let t: TestGateway
  let sessionId: string
  let otherKey: string

  const call = async (method: string, path: string, body?: unknown, key = t.key) => {
    const response = await t.request(path, {
      ...(body === undefined ? {} : jsonBody(body)),
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    })
    return { status: response.status, body: (await response.json()) as any }
  }

  beforeAll(async () => {
    // The free plan without message webhooks, as an operator may set it (FREE_MESSAGE_WEBHOOKS=false).
    t = await startTestGateway({ resolver, plan: 'free', config: { plans: PLANS } })
    sessionId = createSessionRow(t, 'hooks')
    otherKey = t.addWorkspace('other').key
  })
  afterAll(() => t.close())

  it('creates, lists (never the secret), changes, rotates and deletes a session webhook', async () => {
    const created = await call('POST', `/v1/session/${sessionId}/webhooks`, {
      url: HOOK,
      events: ['call.received'],
      description: 'n8n trigger',
    })
    expect(created.status).toBe(200)
    // Read before toMatchObject: Bun's writes its matchers into the object it checks.
    const { webhookId, secret } = created.body
    expect(Object.keys(created.body).sort()).toEqual([
      'createdAt',
      'description',
      'events',
      'secret',
      'url',
      'webhookId',
    ])
    expect(created.body).toMatchObject({
      webhookId: expect.stringMatching(/^whk_/),
      url: HOOK,
      events: ['call.received'],
      description: 'n8n trigger',
      secret: expect.stringMatching(/^whsec_/),
    })

    const listed = await call('GET', `/v1/session/${sessionId}/webhooks`)
    expect(listed).toEqual({
      status: 200,
      body: {
        webhooks: [
          {
            webhookId,
            url: HOOK,
            events: ['call.received'],
            description: 'n8n trigger',
            createdAt: created.body.createdAt,
          },
        ],
      },
    })
    expect(JSON.stringify(listed.body).includes(secret)).toBe(false)

    const changed = await call('PUT', `/v1/session/${sessionId}/webhooks/${webhookId}`, {
      url: 'https://hooks.invalid/moved',
      events: null,
    })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ webhookId, url: 'https://hooks.invalid/moved', events: null })
    expect(changed.body.secret).toBeUndefined()

    const rotated = await call('PUT', `/v1/session/${sessionId}/webhooks/${webhookId}`, { rotateSecret: true })
    expect(rotated.status).toBe(200)
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(secret)

    expect(await call('DELETE', `/v1/session/${sessionId}/webhooks/${webhookId}`)).toEqual({
      status: 200,
      body: { webhookId, deleted: true },
    })
    expect((await call('GET', `/v1/session/${sessionId}/webhooks`)).body.webhooks).toEqual([])
    expect((await call('DELETE', `/v1/session/${sessionId}/webhooks/${webhookId}`)).status).toBe(404)
  })

  it('keeps workspace webhooks apart from the session’s', async () => {
    const own = await call('POST', '/v1/webhooks', { url: HOOK })
    expect(own.status).toBe(200)
    expect(own.body).toMatchObject({ url: HOOK, events: null, description: null, secret: expect.any(String) })
    expect((await call('GET', '/v1/webhooks')).body.webhooks.map((w: any) => w.webhookId)).toEqual([own.body.webhookId])
    // A workspace webhook is not the session's to change, nor the reverse.
    expect((await call('PUT', `/v1/session/${sessionId}/webhooks/${own.body.webhookId}`, { url: HOOK })).status).toBe(
      404,
    )
    const ofSession = await call('POST', `/v1/session/${sessionId}/webhooks`, { url: HOOK })
    expect((await call('DELETE', `/v1/webhooks/${ofSession.body.webhookId}`)).status).toBe(404)
    expect((await call('DELETE', `/v1/webhooks/${own.body.webhookId}`)).status).toBe(200)
    expect((await call('DELETE', `/v1/session/${sessionId}/webhooks/${ofSession.body.webhookId}`)).status).toBe(200)
  })

  it('answers 404 for another workspace’s session and webhooks, and changes nothing', async () => {
    const mine = await call('POST', `/v1/session/${sessionId}/webhooks`, { url: HOOK })
    const mineOwn = await call('POST', '/v1/webhooks', { url: HOOK })
    const paths = [
      ['GET', `/v1/session/${sessionId}/webhooks`],
      ['POST', `/v1/session/${sessionId}/webhooks`, { url: HOOK }],
      ['PUT', `/v1/session/${sessionId}/webhooks/${mine.body.webhookId}`, { url: 'https://hooks.invalid/stolen' }],
      ['DELETE', `/v1/session/${sessionId}/webhooks/${mine.body.webhookId}`],
      ['PUT', `/v1/webhooks/${mineOwn.body.webhookId}`, { url: 'https://hooks.invalid/stolen' }],
      ['DELETE', `/v1/webhooks/${mineOwn.body.webhookId}`],
    ] as const
    for (const [method, path, body] of paths) {
      const answer = await call(method, path, body, otherKey)
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.body.error).toBe('not_found')
    }
    expect((await call('GET', '/v1/webhooks', undefined, otherKey)).body.webhooks).toEqual([])
    expect((await call('GET', `/v1/session/${sessionId}/webhooks`)).body.webhooks).toEqual([
      expect.objectContaining({ webhookId: mine.body.webhookId, url: HOOK }),
    ])
    expect((await call('GET', '/v1/webhooks')).body.webhooks).toEqual([
      expect.objectContaining({ webhookId: mineOwn.body.webhookId, url: HOOK }),
    ])
    await call('DELETE', `/v1/session/${sessionId}/webhooks/${mine.body.webhookId}`)
    await call('DELETE', `/v1/webhooks/${mineOwn.body.webhookId}`)
  })

  it('holds the cap of 10 per session and per workspace under concurrent creates (409 past it)', async () => {
    const crowded = createSessionRow(t, 'crowded')
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) => call('POST', `/v1/session/${crowded}/webhooks`, { url: `${HOOK}/${i}` })),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10)
    const refused = answers.filter((a) => a.status !== 200)
    expect(refused).toHaveLength(4)
    for (const answer of refused) {
      expect(answer.status).toBe(409)
      expect(answer.body).toMatchObject({ error: 'webhook_limit_reached', details: { limit: 10 } })
      expect(answer.body.message).toMatch(/at most|most it may have/)
    }
    expect((await call('GET', `/v1/session/${crowded}/webhooks`)).body.webhooks).toHaveLength(10)
    // Another session of the workspace has its own 10.
    expect((await call('POST', `/v1/session/${sessionId}/webhooks`, { url: HOOK })).status).toBe(200)

    const own = await Promise.all(Array.from({ length: 12 }, () => call('POST', '/v1/webhooks', { url: HOOK })))
    expect(own.filter((a) => a.status === 200)).toHaveLength(10)
    expect(own.filter((a) => a.status === 409)).toHaveLength(2)
    // Room again after a delete.
    const first = (await call('GET', '/v1/webhooks')).body.webhooks[0].webhookId
    expect((await call('DELETE', `/v1/webhooks/${first}`)).status).toBe(200)
    expect((await call('POST', '/v1/webhooks', { url: HOOK })).status).toBe(200)
  })

  it('refuses a bad URL with the webhookUrl guard, and bounds every field', async () => {
    const fresh = createSessionRow(t, 'guarded')
    const post = (body: unknown) => call('POST', `/v1/session/${fresh}/webhooks`, body)
    for (const url of ['https://localhost./hook', 'https://[::ffff:10.0.0.1]/hook', 'https://inside.hooks.test/hook']) {
      const answer = await post({ url })
      expect(answer.status, url).toBe(400)
      expect(answer.body.details.fields[0]).toMatchObject({
        path: 'url',
        message: expect.stringMatching(/private|loopback/),
      })
    }
    const cases = [
      { url: 'ftp://hooks.invalid/x' },
      { url: `https://hooks.invalid/${'a'.repeat(2100)}` },
      { url: HOOK, description: 'x'.repeat(501) },
      { url: HOOK, events: ['no.such.event'] },
      { url: HOOK, events: [] },
      { url: HOOK, secret: 'whsec_mine' },
      {},
    ]
    for (const body of cases) expect((await post(body)).status, JSON.stringify(body).slice(0, 80)).toBe(400)
    // An update is checked the same way, and an empty one says what it needs.
    const made = await post({ url: HOOK })
    expect(
      (await call('PUT', `/v1/session/${fresh}/webhooks/${made.body.webhookId}`, { url: 'https://localhost./x' }))
        .status,
    ).toBe(400)
    expect((await call('PUT', `/v1/session/${fresh}/webhooks/${made.body.webhookId}`, {})).status).toBe(400)
    expect((await call('GET', `/v1/session/${fresh}/webhooks`)).body.webhooks).toEqual([
      expect.objectContaining({ url: HOOK }),
    ])
  })

  it('needs the plan’s message webhooks for message.* events, as webhookEvents does', async () => {
    const fresh = createSessionRow(t, 'free-plan')
    const answer = await call('POST', `/v1/session/${fresh}/webhooks`, { url: HOOK, events: ['message.received'] })
    expect(answer.status).toBe(403)
    expect(answer.body.error).toBe('plan_required')
    const made = await call('POST', `/v1/session/${fresh}/webhooks`, { url: HOOK, events: ['call.received'] })
    const change = await call('PUT', `/v1/session/${fresh}/webhooks/${made.body.webhookId}`, {
      events: ['message.received'],
    })
    expect(change.status).toBe(403)
  })
})
