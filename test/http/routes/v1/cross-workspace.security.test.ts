import { parseResponse } from 'hono/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { v1Declarations } from '../../../../src/http/routes/v1/declarations'
import { buildOpenApiDocument } from '../../../../src/openapi/document'
import {
  EXAMPLE_INVITE_CODE,
  EXAMPLE_MESSAGE_ID,
  EXAMPLE_PHONE,
  EXAMPLE_SESSION_ID,
  EXAMPLE_WEBHOOK_URL,
} from '../../../../src/schemas/examples'
import { iqsSettled, startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550019201'
const NOBODY = 'ses_aaaaaaaaaaaaaaaaaaaaaaaa'

/** A declared route that names a session, with where it takes the id. */
interface SessionRoute {
  method: string
  path: string
  /** The path parameter that is the session id, if it is one. */
  pathParam?: string
  inQuery: boolean
  /** Other required query parameters (a label removal names its chat or message there). */
  queryParams: string[]
  inBody: boolean
  /** The request body's example: valid as given once the ids name real things. */
  example?: unknown
}

/**
 * Every /v1 route that names a session (a path id under /v1/session/, or `sessionId` in its
 * query or body), read off the declarations: a route added to a resource's list is covered here
 * with nothing to write.
 */
function sessionRoutes(): SessionRoute[] {
  const document: any = buildOpenApiDocument(v1Declarations)
  return v1Declarations.flatMap((route) => {
    const operation = document.paths[route.path]?.[route.method]
    if (!operation)
      throw new Error(`${route.method} ${route.path} is not in the document (hidden?): add it here by hand`)
    const parameters: { in: string; name: string }[] = operation.parameters ?? []
    const pathParam = route.path.startsWith('/v1/session/')
      ? parameters.find((p) => p.in === 'path' && ['id', 'session_id'].includes(p.name))?.name
      : undefined
    const inQuery = parameters.some((p) => p.in === 'query' && p.name === 'sessionId')
    const queryParams = (parameters as { in: string; name: string; required?: boolean }[])
      .filter((p) => p.in === 'query' && p.required && p.name !== 'sessionId')
      .map((p) => p.name)
    const ref: string | undefined = operation.requestBody?.$ref
    const requestBody = ref ? document.components.requestBodies[ref.split('/').pop()!] : operation.requestBody
    const media = requestBody?.content['application/json']
    const inBody = Boolean(media?.schema.properties?.sessionId)
    if (!pathParam && !inQuery && !inBody) return []
    return [
      {
        method: route.method,
        path: route.path,
        pathParam,
        inQuery,
        queryParams,
        inBody,
        example: media?.schema.example,
      },
    ]
  })
}

/**
 * unkey's runCommonRouteTests, for workspaces: every session route, asked by another workspace
 * with the owner's real ids (its session, message, group, delivery), answers 404 not_found
 * exactly as for a session that does not exist, and the session, its account and its records
 * are untouched.
 */
describe('every session route refuses another workspace’s session', () => {
  let t: SimulatedGateway
  let stranger: { key: string }
  const ids = { sessionId: '', messageId: '', groupId: '', inviteCode: '', deliveryId: '', channelId: '' }
  const routes = sessionRoutes()

  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid' })
    t.sim.addContact(EXAMPLE_PHONE)
    stranger = t.addWorkspace('stranger', 'paid')
    ;({ sessionId: ids.sessionId } = await t.linkSession({ phone: ACCOUNT, connect: { sessionName: 'owned' } }))
    await t.sim.account(ACCOUNT).waitForAppStateKey()
    const text = await parseResponse(
      t.api.v1.message.text.$post({
        json: { sessionId: ids.sessionId, phone: EXAMPLE_PHONE, message: 'mine' },
        header: {},
      }),
    )
    ids.messageId = text.messageId
    const group = await parseResponse(
      t.api.v1.group.create.$post({
        json: { sessionId: ids.sessionId, subject: 'Owned', participants: [EXAMPLE_PHONE] },
      }),
    )
    ids.groupId = group.group.groupId
    const invite = await parseResponse(
      t.api.v1.group[':groupId'].invite.$get({ param: { groupId: ids.groupId }, query: { sessionId: ids.sessionId } }),
    )
    ids.inviteCode = invite.inviteCode
    const deliveries = await parseResponse(t.api.v1.webhooks.deliveries.$get({ query: { sessionId: ids.sessionId } }))
    ids.deliveryId = deliveries.deliveries[0]!.deliveryId
    ids.channelId = t.sim.createChannel({ name: 'Owner’s channel', owner: ACCOUNT }).jid
  }, 60_000)
  afterAll(() => t?.close())

  /** The route asked as `key` about `sessionId`, every other id the owner's own. */
  async function ask(route: SessionRoute, key: string, sessionId: string) {
    const values: Record<string, string> = {
      messageId: ids.messageId,
      groupId: ids.groupId,
      deliveryId: ids.deliveryId,
      phone: EXAMPLE_PHONE,
      channelId: ids.channelId,
      labelId: '1',
    }
    const path = route.path.replaceAll(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(name === route.pathParam ? sessionId : values[name]!),
    )
    const query = new URLSearchParams(route.inQuery ? { sessionId } : {})
    for (const name of route.queryParams) query.set(name, values[name]!)
    // GET /v1/channel/info names its channel in the query too (id or link, neither required alone).
    if (route.path === '/v1/channel/info') query.set('id', ids.channelId)
    const url = query.size ? `${path}?${query}` : path
    // Media and webhook URLs go to .invalid hosts: a route that let the request through fetches nothing real.
    const body =
      route.example === undefined
        ? undefined
        : JSON.stringify(route.example)
            .replaceAll(EXAMPLE_SESSION_ID, sessionId)
            .replaceAll(EXAMPLE_MESSAGE_ID, ids.messageId)
            .replaceAll(EXAMPLE_INVITE_CODE, ids.inviteCode)
            .replaceAll(EXAMPLE_WEBHOOK_URL, 'https://hooks.invalid/wa')
            .replaceAll('https://example.com/', 'https://media.invalid/')
    const response = await t.request(url, {
      method: route.method.toUpperCase(),
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body } : {}),
    })
    const text = await response.text()
    return {
      status: response.status,
      body: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text,
    }
  }

  /** What the owner sees of its session and what its account did. */
  const snapshot = async () => {
    const { sessions } = await parseResponse(t.api.v1.session.all.$get())
    const { lastSeen: _, ...session } = sessions.find((s) => s.sessionId === ids.sessionId)!
    const messages = await parseResponse(t.api.v1.message.all.$get({ query: { sessionId: ids.sessionId } }))
    const group = await parseResponse(
      t.api.v1.group[':groupId'].$get({ param: { groupId: ids.groupId }, query: { sessionId: ids.sessionId } }),
    )
    const account = t.sim.account(ACCOUNT)
    return {
      session,
      messages: messages.messages,
      group,
      // What WhatsApp saw: no login, message, query (iq) of the account; its blocks, profile and group as they were.
      stats: t.sim.stats()[ACCOUNT],
      linked: account.linked,
      blocked: account.blocked(),
      profile: t.sim.profile(ACCOUNT),
      groupAtWhatsApp: t.sim.group(ids.groupId).info(),
    }
  }

  it('finds the session routes in the declarations: the path, query and body ones', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`)
    expect(names).toEqual(
      expect.arrayContaining([
        'put /v1/session/update/{id}',
        'delete /v1/session/disconnect/{session_id}',
        'post /v1/session/{id}/restart',
        'get /v1/session/{id}/qr',
        'put /v1/session/{id}/profile',
        'post /v1/message/text',
        'get /v1/message/{messageId}',
        'get /v1/events',
        'post /v1/group/{groupId}/leave',
      ]),
    )
    expect(names).not.toContain('post /v1/session/connect')
    expect(routes.filter((r) => r.inBody).every((r) => r.example !== undefined)).toBe(true)
  })

  it('answers 404 not_found to each, word for word as for a session that does not exist, and touches nothing', async () => {
    await iqsSettled(t.sim, ACCOUNT)
    const before = await snapshot()
    const answers: unknown[] = []
    for (const route of routes) {
      const theirs = await ask(route, stranger.key, ids.sessionId)
      const nobody = await ask(route, stranger.key, NOBODY)
      const same =
        JSON.stringify(theirs.body).replaceAll(ids.sessionId, 'ID') ===
        JSON.stringify(nobody.body).replaceAll(NOBODY, 'ID')
      answers.push({ route: `${route.method} ${route.path}`, status: theirs.status, error: theirs.body?.error, same })
    }
    expect(answers).toEqual(
      routes.map((r) => ({ route: `${r.method} ${r.path}`, status: 404, error: 'not_found', same: true })),
    )
    expect(await snapshot()).toEqual(before)
    expect(t.sim.violations()).toEqual([])
  })

  it('answers the owner as before: the requests above were refused for the caller, not broken for everyone', async () => {
    const text = await parseResponse(
      t.api.v1.message.text.$post({
        json: { sessionId: ids.sessionId, phone: EXAMPLE_PHONE, message: 'still mine' },
        header: {},
      }),
    )
    expect(text.messageId).toEqual(expect.any(String))
  })
})
