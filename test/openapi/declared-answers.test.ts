import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHATWOOT_EXAMPLE_TOKEN } from '../../src/schemas/chatwoot'
import { EXAMPLE_INVITE_CODE, EXAMPLE_MESSAGE_ID, EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from '../../src/schemas/examples'
import { serve } from '../../src/runtime/serve'
import { isRefused, openSocket } from '../support/event-socket'
import { startChatwootStandIn, type ChatwootStandIn } from '../support/chatwoot/stand-in'
import { startTestGateway, type TestGateway } from '../support/gateway'
import { startMediaServer, type MediaServer } from '../support/media-server'
import {
  type Answer,
  documentValidator,
  type DocumentValidator,
  type Operation,
  operationsOf,
} from '../support/openapi-answers'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import { fastWebhooks, loopbackWebhooks, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'
import { fixture, type FixtureName } from '../wa-sim/fixtures'

const ACCOUNT = '15550019101'
const ADMIN_KEY = 'admin-key-of-the-declared-answers-test-0123456789'
const METRICS_TOKEN = 'metrics-token-of-the-declared-answers-test'
const BODY_LIMIT = 8 * 1024
/** Longer than any path id the gateway takes (a signed media token is the longest, 1,024). */
const LONG_ID = 'x'.repeat(2_000)
/** Asked last: each takes away what the others need (the session, the group, the key). */
const LAST = [
  'deleteLabel',
  'deleteSessionChatwoot',
  'revokeGroupInvite',
  'leaveGroup',
  'deleteSessionWebhook',
  'deleteWorkspaceWebhook',
  'restartSession',
  'disconnectSession',
  'deleteSession',
  'adminRevokeApiKey',
]

const WITH_BODY = ['post', 'put', 'patch', 'delete']
const WITH_JSON = ['post', 'put', 'patch']

interface Sent {
  operation: Operation
  /** Which of the test's requests this is: the answer is checked against `expected` too. */
  kind: string
  expected?: number
  response: Response
}

/**
 * Every operation /openapi.json lists is driven through the real app (a new route is covered by
 * being in the document) with a request that should succeed, a body over BODY_LIMIT_BYTES, a
 * body that is not JSON, an unknown query parameter, an over-long path id, no credential and a
 * wrong one, and again past the per-minute limit; each answer's status, content type and body
 * must be what the document declares for that operation.
 */
describe('/openapi.json declares every answer the gateway gives', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let files: MediaServer
  let chatwoot: ChatwootStandIn
  let document: any
  let validator: DocumentValidator
  let operations: Operation[]
  const ids = {
    sessionId: '',
    pairingId: '',
    deletableId: '',
    textId: '',
    statusId: '',
    mediaId: '',
    groupId: '',
    inviteCode: '',
    deliveryId: '',
    keyId: '',
    token: '',
    sessionWebhookId: '',
    workspaceWebhookId: '',
    callbackToken: '',
    callId: '',
    channelId: '',
    labelId: '',
  }
  const problems: string[] = []
  const unexpected: string[] = []

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    files = await startMediaServer()
    chatwoot = await startChatwootStandIn()
    // The files the request examples name (at example.com), from the simulator's fixtures.
    const served: Record<string, FixtureName> = {
      'photo.jpg': 'jpeg',
      'note.mp3': 'mp3',
      'sticker.webp': 'webp',
      'clip.mp4': 'mp4',
      'report.pdf': 'pdf',
    }
    for (const [name, kind] of Object.entries(served)) files.serve(name, fixture(kind).bytes, fixture(kind).mimetype)
    t = await startSimulatedGateway({
      plan: 'paid',
      config: {
        ...loopbackWebhooks,
        webhooks: fastWebhooks(),
        adminApiKey: ADMIN_KEY,
        metricsToken: METRICS_TOKEN,
        bodyLimitBytes: BODY_LIMIT,
        rateLimitPerMinute: 0,
        publicUrl: 'https://gateway.invalid',
      },
    })
    t.sim.addContact(EXAMPLE_PHONE)
    t.sim.addContact('15551230002')
    document = await (await t.request('/openapi.json')).json()
    validator = documentValidator(document)
    operations = operationsOf(document)

    const linked = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'declared', webhookUrl: receiver.url('hook') },
    })
    ids.sessionId = linked.sessionId
    await t.sim.account(ACCOUNT).waitForAppStateKey()
    // A business account, for the label routes, with a label of its own.
    t.sim.setProfile(ACCOUNT, { business: { description: 'Declared answers' } })
    const label = await t.post('/v1/label', { sessionId: ids.sessionId, name: 'Declared', color: 1 })
    if (label.status !== 200) throw new Error(`label: ${label.status} ${JSON.stringify(label.body)}`)
    ids.labelId = label.body.label.id
    const text = await t.post('/v1/message/text', { sessionId: ids.sessionId, phone: EXAMPLE_PHONE, message: 'hi' })
    ids.textId = text.body.messageId
    // A status of the session's own, for POST /v1/status/delete.
    const status = await t.post('/v1/status/text', { sessionId: ids.sessionId, text: 'hi', contacts: [EXAMPLE_PHONE] })
    ids.statusId = status.body.messageId
    ids.mediaId = await t.sim
      .contact(EXAMPLE_PHONE)
      .send({ image: fixture('jpeg').bytes, mimetype: 'image/jpeg' }, { to: ACCOUNT })
    const events = await receiver.waitFor('hook', linked.webhookSecret, (all) =>
      all.some((e) => e.type === 'message.received' && e.data.messageId === ids.mediaId),
    )
    ids.token = new URL(events.find((e) => e.data.messageId === ids.mediaId)!.data.downloadUrl).pathname
      .split('/')
      .pop()!
    const group = await t.post('/v1/group/create', {
      sessionId: ids.sessionId,
      subject: 'Declared answers',
      participants: [EXAMPLE_PHONE],
    })
    ids.groupId = group.body.group.groupId
    ids.inviteCode = (await t.get(`/v1/group/${ids.groupId}/invite?sessionId=${ids.sessionId}`)).body.inviteCode
    // A call ringing, for POST /v1/call/{callId}/reject.
    ids.callId = t.sim.contact(EXAMPLE_PHONE).call(ACCOUNT)
    await receiver.waitFor('hook', linked.webhookSecret, (all) =>
      all.some((e) => e.type === 'call.received' && e.data.callId === ids.callId),
    )
    // A channel the account follows (not its own: unfollowing that is refused), for the channel routes.
    ids.channelId = t.sim.createChannel({ name: 'Declared answers', followers: [ACCOUNT] }).jid
    ids.pairingId = (await t.connect({ sessionName: 'pairing' })).body.sessionId
    // A session that is not live, for DELETE /v1/session/{id} to remove.
    ids.deletableId = (await t.connect({ sessionName: 'deletable' })).body.sessionId
    await t.request(`/v1/session/disconnect/${ids.deletableId}`, { method: 'DELETE' })
    const deliveries = await t.get(`/v1/webhooks/deliveries?sessionId=${ids.sessionId}`)
    ids.deliveryId = deliveries.body.deliveries[0].deliveryId
    const hook = { url: receiver.url('extra') }
    ids.sessionWebhookId = (await t.post(`/v1/session/${ids.sessionId}/webhooks`, hook)).body.webhookId
    ids.workspaceWebhookId = (await t.post('/v1/webhooks', hook)).body.webhookId
    const key = await t.request('/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace: 'test' }),
    })
    ids.keyId = ((await key.json()) as any).keyId
    // A Chatwoot integration for the Chatwoot routes (the stand-in on loopback), and its callback's token.
    const integration = await t.request(`/v1/session/${ids.sessionId}/chatwoot`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: chatwoot.url, accountId: chatwoot.accountId, apiToken: chatwoot.token }),
    })
    if (integration.status !== 200) throw new Error(`chatwoot: ${integration.status} ${await integration.text()}`)
    ids.callbackToken = chatwoot.inboxes[0]!.webhookUrl!.split('/').pop()!
  }, 90_000)
  afterAll(async () => {
    validator?.close()
    await t?.close()
    await chatwoot?.close()
    await receiver?.close()
    await files?.close()
  })

  const pathValue = (operation: Operation, name: string): string => {
    const byName: Record<string, string> = {
      id:
        operation.id === 'getSessionQr'
          ? ids.pairingId
          : operation.id === 'deleteSession'
            ? ids.deletableId
            : ids.sessionId,
      session_id: ids.sessionId,
      sessionId: ids.sessionId,
      // forwardMessage runs after deleteMessage has deleted the text: it forwards the received image.
      messageId: ['getMessageMedia', 'getMessage', 'forwardMessage'].includes(operation.id) ? ids.mediaId : ids.textId,
      phone: EXAMPLE_PHONE,
      groupId: ids.groupId,
      deliveryId: ids.deliveryId,
      webhookId: operation.id.includes('Workspace') ? ids.workspaceWebhookId : ids.sessionWebhookId,
      workspace: 'test',
      keyId: ids.keyId,
      callId: ids.callId,
      channelId: ids.channelId,
      labelId: ids.labelId,
      token: operation.id === 'chatwootCallback' ? ids.callbackToken : ids.token,
    }
    if (!(name in byName)) throw new Error(`${operation.id}: no value for path parameter ${name}`)
    return byName[name]!
  }

  const parameters = (operation: Operation, where: string): any[] =>
    (operation.spec.parameters ?? []).filter((p: any) => p.in === where)

  /** The operation's URL with real ids, its query's sessionId, and `extra` query parameters. */
  const urlOf = (operation: Operation, options: { pathId?: string; extra?: string } = {}) => {
    const path = operation.path.replaceAll(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(options.pathId ?? pathValue(operation, name)),
    )
    const query = new URLSearchParams()
    if (parameters(operation, 'query').some((p) => p.name === 'sessionId')) query.set('sessionId', ids.sessionId)
    // The one operation that needs a query parameter besides the session: which channel (id or link).
    if (operation.id === 'getChannelInfo') query.set('id', ids.channelId)
    // The label removals name the chat or the message in their query.
    if (parameters(operation, 'query').some((p) => p.name === 'phone')) query.set('phone', EXAMPLE_PHONE)
    if (parameters(operation, 'query').some((p) => p.name === 'messageId')) query.set('messageId', ids.textId)
    if (options.extra) query.set(options.extra, '1')
    return query.size ? `${path}?${query}` : path
  }

  /** The request body's example with the test's own ids and loopback URLs. */
  const bodyOf = (operation: Operation): string | undefined => {
    const requestBody = operation.spec.requestBody
    if (!requestBody) return undefined
    const content = requestBody.$ref
      ? document.components.requestBodies[requestBody.$ref.split('/').pop()].content
      : requestBody.content
    const media = content['application/json']
    return JSON.stringify(media.schema.example ?? media.example)
      .replaceAll(EXAMPLE_SESSION_ID, ids.sessionId)
      .replaceAll(EXAMPLE_MESSAGE_ID, operation.id === 'deleteStatus' ? ids.statusId : ids.textId)
      .replaceAll(EXAMPLE_INVITE_CODE, ids.inviteCode)
      .replaceAll(/https:\/\/example\.com\/([\w.]+)/g, (_, name: string) => files.url(name))
      .replaceAll('https://hooks.example.com/wa', receiver.url('hook'))
      .replaceAll('https://chat.example.com', chatwoot.url)
      .replaceAll(CHATWOOT_EXAMPLE_TOKEN, chatwoot.token)
  }

  const credentialOf = (operation: Operation): string | undefined => {
    const schemes = (operation.spec.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s))
    if (schemes.includes('adminBearer')) return ADMIN_KEY
    if (schemes.includes('metricsBearer')) return METRICS_TOKEN
    if (schemes.includes('bearerAuth')) return t.key
    return undefined
  }

  const isSecured = (operation: Operation) => credentialOf(operation) !== undefined

  async function send(
    gateway: TestGateway,
    operation: Operation,
    options: {
      url?: string
      body?: string
      contentType?: string
      authorization?: string | null
    } = {},
  ): Promise<Response> {
    const headers = new Headers()
    const credential = options.authorization === undefined ? credentialOf(operation) : options.authorization
    // TestGateway.request adds the workspace's key unless an authorization is set: '' stands for none.
    headers.set('authorization', credential ? `Bearer ${credential}` : '')
    const body = options.body ?? bodyOf(operation)
    if (body !== undefined && WITH_BODY.includes(operation.method))
      headers.set('content-type', options.contentType ?? 'application/json')
    return gateway.request(options.url ?? urlOf(operation), {
      method: operation.method.toUpperCase(),
      headers,
      ...(body !== undefined && WITH_BODY.includes(operation.method) ? { body } : {}),
    })
  }

  async function check({ operation, kind, expected, response }: Sent): Promise<Answer> {
    const type = response.headers.get('content-type') ?? ''
    let text: string | undefined
    if (/json/.test(type)) text = await response.text()
    else await response.body?.cancel()
    const answer = { status: response.status, headers: response.headers, text }
    for (const problem of await validator.problems(operation, answer)) problems.push(`${problem} (${kind})`)
    if (expected !== undefined && response.status !== expected)
      unexpected.push(`${operation.id} (${kind}): ${response.status}, expected ${expected}: ${text ?? type}`)
    return answer
  }

  /** GET /v1/events/ws over loopback with the key as its subprotocol: 101 when the socket opened. */
  async function handshakeStatus(): Promise<number> {
    const server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
    try {
      const socket = await openSocket(`ws://127.0.0.1:${server.port}/v1/events/ws?sessionId=${ids.sessionId}`, {
        protocols: ['wag.events.v1', `wag.bearer.${t.key}`],
      })
      if (isRefused(socket)) return socket.status
      socket.close()
      await socket.closed
      return 101
    } finally {
      await server.close()
    }
  }

  it('covers every operation of the document, the admin and metrics ones included', () => {
    expect(operations.length).toBeGreaterThanOrEqual(50)
    expect(operations.map((o) => o.id)).toEqual(
      expect.arrayContaining(['adminListApiKeys', 'metrics', 'getSignedMedia']),
    )
  })

  it('gives every error answer an example of each code it lists, and every example matches its schema', async () => {
    const found: string[] = []
    for (const operation of operations) {
      found.push(...(await validator.examples(operation)))
      for (const [status, response] of Object.entries<any>(operation.spec.responses)) {
        const error = response.content?.['application/json']?.schema?.$ref === '#/components/schemas/Error'
        if (error && !Object.keys(response.content['application/json'].examples ?? {}).length)
          found.push(`${operation.id} ${status}: no example`)
      }
    }
    expect(found).toEqual([])
    // Each is written once, under components/examples, and referred to.
    expect(Object.keys(document.components.examples)).toContain('error_rate_limited')
  })

  /** The operations with LAST at the end, so that the others still have a session, a group and a key. */
  const inOrder = () => [
    ...operations.filter((o) => !LAST.includes(o.id)),
    ...LAST.map((id) => operations.find((o) => o.id === id)!),
  ]

  it('requests that should succeed: every one does, as the document says', async () => {
    const failed: string[] = []
    for (const operation of inOrder()) {
      if (operation.id === 'streamEventsWebSocket') {
        // A handshake needs a real server and answers 101, which no fetch Response can hold.
        const status = await handshakeStatus()
        if (status !== 101 || !operation.spec.responses['101']) failed.push(`${operation.id} ${status}`)
        continue
      }
      const answer = await check({ operation, kind: 'should succeed', response: await send(t, operation) })
      if (answer.status >= 300) failed.push(`${operation.id} ${answer.status} ${answer.text?.slice(0, 200)}`)
    }
    expect(failed).toEqual([])
  }, 120_000)

  it('refusals: a body over the limit, a body that is not JSON, an unknown query parameter, an over-long path id, no or a wrong credential', async () => {
    for (const operation of inOrder()) {
      const sent: Sent[] = []
      if (WITH_BODY.includes(operation.method)) {
        const body = JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT) })
        sent.push({ operation, kind: 'body too large', expected: 413, response: await send(t, operation, { body }) })
      }
      if (WITH_JSON.includes(operation.method)) {
        const body = bodyOf(operation) ?? 'hello'
        const response = await send(t, operation, { body, contentType: 'text/plain' })
        sent.push({ operation, kind: 'wrong content type', expected: 415, response })
      }
      const extra = await send(t, operation, { url: urlOf(operation, { extra: 'unexpected' }) })
      sent.push({ operation, kind: 'unknown query parameter', expected: 400, response: extra })
      if (operation.path.includes('{')) {
        const response = await send(t, operation, { url: urlOf(operation, { pathId: LONG_ID }) })
        sent.push({ operation, kind: 'over-long path id', expected: 400, response })
      }
      if (isSecured(operation)) {
        const none = await send(t, operation, { authorization: null })
        sent.push({ operation, kind: 'no credential', expected: 401, response: none })
        const wrong = await send(t, operation, { authorization: 'not-a-valid-credential' })
        sent.push({ operation, kind: 'wrong credential', expected: 401, response: wrong })
      }
      for (const one of sent) {
        const answer = await check(one)
        if (one.kind === 'unknown query parameter' && answer.status === 400) {
          const fields = JSON.parse(answer.text!).details.fields ?? []
          if (!fields.some((f: any) => f.path === 'query.unexpected'))
            unexpected.push(`${operation.id} (${one.kind}): names ${JSON.stringify(fields)}, not query.unexpected`)
        }
      }
    }
  }, 60_000)

  it('past the per-minute limit: 429 on every operation behind an API key, the admin key included', async () => {
    const limited = await startTestGateway({
      config: { adminApiKey: ADMIN_KEY, metricsToken: METRICS_TOKEN, rateLimitPerMinute: 1 },
    })
    try {
      for (const operation of operations.filter((o) => isSecured(o) && o.path.startsWith('/v1/'))) {
        const ask = () =>
          send(limited, operation, { authorization: credentialOf(operation) === t.key ? limited.key : undefined })
        // Two asks: the first may land in a fresh one-minute window.
        let response = await ask()
        if (response.status !== 429) {
          await response.body?.cancel()
          response = await ask()
        }
        await check({ operation, kind: 'over the rate limit', expected: 429, response })
      }
    } finally {
      await limited.close()
    }
  }, 60_000)

  it('found nothing undeclared and nothing unexpected', () => {
    expect({ problems, unexpected }).toEqual({ problems: [], unexpected: [] })
  })
})
