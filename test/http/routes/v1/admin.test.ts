import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../../../support/gateway'

const ADMIN_KEY = 'admin-key-0123456789-0123456789-abcdef'

describe('/v1/admin with ADMIN_API_KEY', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway({ config: { adminApiKey: ADMIN_KEY } })
  })
  afterAll(() => t.close())

  const admin = (path: string, init: { method?: string; body?: unknown; auth?: string } = {}) =>
    t.gateway.app.request(path, {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: { authorization: init.auth ?? `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })

  it('creates a workspace, issues a key that works on /v1, changes the plan and revokes the key', async () => {
    const created = await admin('/v1/admin/workspaces', { body: { name: 'acme', plan: 'paid' } })
    expect(created.status).toBe(201)
    const workspace = (await created.json()) as any
    expect(workspace).toMatchObject({ id: expect.stringMatching(/^wsp_/), name: 'acme', plan: 'paid' })

    const issued = await admin('/v1/admin/keys', { body: { workspace: 'acme' } })
    expect(issued.status).toBe(201)
    expect(issued.headers.get('cache-control')).toBe('no-store')
    const { keyId, key, prefix } = (await issued.json()) as any
    expect(key).toMatch(/^wag_[a-z2-7]{40}$/)
    expect(key.startsWith(prefix)).toBe(true)

    const asAcme = () => t.gateway.app.request('/v1/workspace', { headers: { authorization: `Bearer ${key}` } })
    expect(await (await asAcme()).json()).toMatchObject({ name: 'acme', plan: 'paid' })

    const moved = await admin(`/v1/admin/workspaces/${workspace.id}/plan`, { method: 'PUT', body: { plan: 'free' } })
    expect(await moved.json()).toMatchObject({ name: 'acme', plan: 'free' })
    expect(await (await asAcme()).json()).toMatchObject({ plan: 'free' })

    const listed = (await (await admin('/v1/admin/keys?workspace=acme')).json()) as any
    expect(listed.keys).toEqual([expect.objectContaining({ keyId, workspace: 'acme', prefix, revokedAt: null })])
    expect(JSON.stringify(listed)).not.toContain(key)

    const revoked = await admin(`/v1/admin/keys/${keyId}`, { method: 'DELETE' })
    expect(await revoked.json()).toEqual({ keyId, revoked: true })
    expect((await asAcme()).status).toBe(401)
    // Revoking again is fine; an unknown key is not.
    expect((await admin(`/v1/admin/keys/${keyId}`, { method: 'DELETE' })).status).toBe(200)
    expect((await admin('/v1/admin/keys/key_nope', { method: 'DELETE' })).status).toBe(404)

    const workspaces = (await (await admin('/v1/admin/workspaces')).json()) as any
    expect(workspaces.workspaces.map((w: { name: string }) => w.name)).toEqual(['test', 'acme'])
  })

  it('applies the CLI’s rules: unique names, known plans, known workspaces', async () => {
    await admin('/v1/admin/workspaces', { body: { name: 'dup' } })
    const again = await admin('/v1/admin/workspaces', { body: { name: 'dup' } })
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({
      error: 'validation_error',
      message: 'A workspace named "dup" already exists',
    })
    const badPlan = await admin('/v1/admin/workspaces', { body: { name: 'x', plan: 'gold' } })
    expect(await badPlan.json()).toMatchObject({
      error: 'validation_error',
      details: { fields: [expect.objectContaining({ path: 'plan' })] },
    })
    const nobody = await admin('/v1/admin/keys', { body: { workspace: 'nobody' } })
    expect(nobody.status).toBe(404)
    expect(await nobody.json()).toMatchObject({ error: 'not_found', message: 'Workspace "nobody" not found' })
  })

  it('refuses workspace names that hide or mislead: controls, ANSI escapes, bidi overrides, NFC twins, id look-alikes', async () => {
    for (const name of [
      'nul\u0000byte',
      '\u001b[31mred\u001b[0m',
      'invoice\u202efdp.exe',
      '\u200b',
      'wsp_abcdefghijklmnopqrst',
    ]) {
      const refused = await admin('/v1/admin/workspaces', { body: { name } })
      expect(refused.status, JSON.stringify(name)).toBe(400)
      expect(((await refused.json()) as any).details.fields[0].path).toBe('name')
    }
    const precomposed = await admin('/v1/admin/workspaces', { body: { name: 'caf\u00e9' } })
    expect(precomposed.status).toBe(201)
    const decomposed = await admin('/v1/admin/workspaces', { body: { name: ' cafe\u0301 ' } })
    expect(await decomposed.json()).toMatchObject({
      error: 'validation_error',
      message: 'A workspace named "caf\u00e9" already exists',
    })
    // An id typed as a name would make `workspace plan <it>` ambiguous: lookups take either.
    const { id } = (await precomposed.json()) as { id: string }
    expect((await admin('/v1/admin/workspaces', { body: { name: id } })).status).toBe(400)
  })

  it('is as strict as /v1: an unknown body field or query parameter is a 400 naming it, and changes nothing', async () => {
    const refusals = [
      ['/v1/admin/workspaces', { body: { name: 'typo', plna: 'paid' } }],
      ['/v1/admin/keys', { body: { workspace: 'test', label: 'ci' } }],
      ['/v1/admin/workspaces/test/plan', { method: 'PUT', body: { plan: 'paid', note: 'x' } }],
    ] as const
    for (const [path, init] of refusals) {
      const refused = await admin(path, init)
      expect({ path, status: refused.status }).toEqual({ path, status: 400 })
      expect(((await refused.json()) as any).details.fields).toEqual([
        { path: '(body)', message: expect.stringMatching(/^unknown field: /) },
      ])
    }
    const listed = await admin('/v1/admin/keys?workspace=test&limit=5')
    expect(listed.status).toBe(400)
    expect(((await listed.json()) as any).details.fields).toEqual([
      { path: 'query.limit', message: 'is not a parameter of this route' },
    ])
    const workspaces = (await (await admin('/v1/admin/workspaces')).json()) as any
    expect(workspaces.workspaces.map((w: { name: string }) => w.name)).not.toContain('typo')
    expect(workspaces.workspaces.find((w: { name: string }) => w.name === 'test')).toMatchObject({ plan: 'free' })
  })

  it('refuses a workspace key, a wrong key and no key with 401', async () => {
    for (const auth of [`Bearer ${t.key}`, 'Bearer admin-key-0123456789-0123456789-abcdeX', '']) {
      const response = await admin('/v1/admin/workspaces', { auth, body: { name: 'intruder' } })
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ error: 'unauthorized' })
    }
    expect((await admin('/v1/admin/workspaces')).status).toBe(200)
    expect(JSON.stringify((await (await admin('/v1/admin/workspaces')).json()) as any)).not.toContain('intruder')
  })

  it('documents the admin routes in /openapi.json', async () => {
    const document = (await (await t.gateway.app.request('/openapi.json')).json()) as any
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/admin/workspaces', '/v1/admin/keys/{keyId}']),
    )
    expect(document.components.securitySchemes.adminBearer).toMatchObject({ scheme: 'bearer' })
  })
})

describe('/v1/admin under RATE_LIMIT_PER_MINUTE', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway({ config: { adminApiKey: ADMIN_KEY, rateLimitPerMinute: 3 } })
  })
  afterAll(() => t.close())
  const list = (key: string) =>
    t.gateway.app.request('/v1/admin/workspaces', { headers: { authorization: `Bearer ${key}` } })

  it('answers 429 past the limit for the admin key, and 401 (no counter) for wrong keys', async () => {
    for (let i = 0; i < 5; i++) expect((await list('admin-key-0123456789-0123456789-wrong!')).status).toBe(401)
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await list(ADMIN_KEY)).status)
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})

describe('/v1/admin without ADMIN_API_KEY', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway()
  })
  afterAll(() => t.close())

  it('does not exist', async () => {
    const response = await t.request('/v1/admin/workspaces')
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: 'not_found' })
    const create = await t.request('/v1/admin/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"workspace":"test"}',
    })
    expect(create.status).toBe(404)
    const document = (await (await t.request('/openapi.json')).json()) as any
    expect(Object.keys(document.paths).some((path) => path.startsWith('/v1/admin'))).toBe(false)
  })
})
