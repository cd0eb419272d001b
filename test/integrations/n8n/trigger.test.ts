import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import type { INodeParameters } from 'n8n-workflow'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WaSessionGatewayApi } from '../../../integrations/n8n/credentials/WaSessionGatewayApi.credentials'
import { WaSessionGateway } from '../../../integrations/n8n/nodes/WaSessionGateway/WaSessionGateway.node'
import { WaSessionGatewayTrigger } from '../../../integrations/n8n/nodes/WaSessionGatewayTrigger/WaSessionGatewayTrigger.node'
import { fixtures } from '../../support/media-fixtures'
import { pollUntil } from '../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'
import type { WorkflowSetup } from './support/n8n-engine'
import { startTriggeredWorkflow, type TriggeredWorkflow } from './support/n8n-trigger'

const ACCOUNT = '15550033001'
const OTHER_ACCOUNT = '15550033002'
const ANNA = '15551233001'
const BORIS = '15551233002'
const ACTION = 'n8n-nodes-wa-session-gateway.waSessionGateway'
const TRIGGER = 'n8n-nodes-wa-session-gateway.waSessionGatewayTrigger'
const EXAMPLE = new URL('../../../integrations/n8n/examples/auto-reply.workflow.json', import.meta.url)
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const textOf = (m: { message: any }) => m.message.conversation ?? m.message.extendedTextMessage?.text

/**
 * The trigger node as n8n runs it (n8n-core's HookContext for its webhook lifecycle,
 * WebhookContext for deliveries, WorkflowExecute for the runs they start), against a gateway
 * over loopback HTTP and the WhatsApp simulator: it adds its own webhook on activation beside
 * the session's webhookUrl, runs the workflow for each event, refuses forged deliveries,
 * ignores replays and removes its webhook on deactivation.
 */
describe('the n8n trigger node in n8n-core’s engine', () => {
  let t: SimulatedGateway
  let server: ServerType
  let baseUrl: string
  let receiver: WebhookReceiver
  let sessionId: string
  let primarySecret: string
  const open: TriggeredWorkflow[] = []

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    // The gateway's PUBLIC_URL is where it is served (downloadUrls point there): listen first.
    await new Promise<void>((resolve) => {
      server = serve({ fetch: (request) => t.gateway.app.fetch(request), port: 0, hostname: '127.0.0.1' }, () =>
        resolve(),
      )
    })
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    t = await startSimulatedGateway({
      plan: 'paid',
      config: { ...loopbackWebhooks, webhooks: fastWebhooks(), publicUrl: baseUrl },
    })
    t.sim.addContact(ANNA)
    t.sim.addContact(BORIS)
    const linked = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'n8n-trigger', webhookUrl: receiver.url('primary') },
    })
    sessionId = linked.sessionId
    primarySecret = linked.webhookSecret
  }, 60_000)
  // A test that fails half way leaves no webhook behind for the next one.
  afterEach(async () => {
    for (const path of [`/v1/session/${sessionId}/webhooks`, '/v1/webhooks'])
      for (const webhook of (await t.get(path)).body.webhooks)
        await t.request(`${path}/${webhook.webhookId}`, { method: 'DELETE' })
  })
  afterAll(async () => {
    for (const workflow of open) await workflow.close()
    await new Promise((resolve) => server?.close(resolve))
    await t?.close()
    await receiver?.close()
  })

  const credentials = { waSessionGatewayApi: { id: '1', name: 'gateway' } }
  const start = async (nodes: WorkflowSetup['nodes'], apiKey = t.key) => {
    const started = await startTriggeredWorkflow({
      nodeTypes: { [TRIGGER]: new WaSessionGatewayTrigger(), [ACTION]: new WaSessionGateway() },
      credentialTypes: { waSessionGatewayApi: new WaSessionGatewayApi() },
      credentials: { waSessionGatewayApi: { baseUrl, apiKey } },
      nodes,
    })
    open.push(started)
    return started
  }
  /** The trigger alone, with the test workspace's key or `apiKey`. */
  const workflow = (trigger: INodeParameters, apiKey?: string) =>
    start(
      [{ name: 'Trigger', type: TRIGGER, parameters: trigger, credentials, webhookId: randomBytes(8).toString('hex') }],
      apiKey,
    )
  /** docs/n8n.md's auto-reply example as a user imports it: the session and the credential filled in. */
  const example = () => {
    const { nodes } = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { nodes: WorkflowSetup['nodes'] }
    return start(
      nodes.map((node) => ({
        ...node,
        credentials,
        parameters: node.parameters.sessionId === 'REPLACE' ? { ...node.parameters, sessionId } : node.parameters,
      })),
    )
  }
  const sessionWebhooks = async (id = sessionId) => (await t.get(`/v1/session/${id}/webhooks`)).body.webhooks as any[]
  const workspaceWebhooks = async () => (await t.get('/v1/webhooks')).body.webhooks as any[]
  const runsOf = (wf: TriggeredWorkflow, count: number) =>
    pollUntil(
      () => wf.runs,
      (runs) => runs.length >= count,
      { timeoutMs: 10_000, what: `${count} workflow runs` },
    )
  const primaryReceived = (text: string) =>
    receiver.waitFor('primary', primarySecret, (events) =>
      events.some((e) => e.type === 'message.received' && e.data.content.text === text),
    )

  it('adds its webhook on activation, runs the example auto-reply for a contact’s message, removes it on deactivation; the session’s webhookUrl gets everything throughout', async () => {
    const wf = await example()
    await wf.activate()
    const [added, ...more] = await sessionWebhooks()
    expect(more).toEqual([])
    expect(added).toMatchObject({
      url: wf.url,
      events: ['message.received'],
      description: 'n8n: test → On WhatsApp message',
    })
    expect(wf.staticData()).toMatchObject({ webhookId: added.webhookId, secret: expect.stringMatching(/^whsec_/) })

    await t.sim.contact(ANNA).send({ text: 'ping' }, { to: ACCOUNT })
    const [run] = await runsOf(wf, 1)
    expect(run!.output('On WhatsApp message')[0]!.json).toMatchObject({
      type: 'message.received',
      sessionId,
      data: { phone: ANNA, content: { text: 'ping' } },
    })
    expect(run!.error('Reply')).toBeUndefined()
    const reply = await t.sim.contact(ANNA).waitForMessage((m) => textOf(m) === 'Thanks, we got your message: ping')
    expect(reply.message.extendedTextMessage?.contextInfo?.quotedMessage?.conversation).toBe('ping')

    await wf.deactivate()
    expect(await sessionWebhooks()).toEqual([])
    expect(wf.staticData().webhookId).toBeUndefined()
    const deliveries = wf.deliveries.length
    await t.sim.contact(ANNA).send({ text: 'after deactivation' }, { to: ACCOUNT })
    await primaryReceived('after deactivation')
    await primaryReceived('ping')
    // The reply went out through the API: the primary webhook reported its status too.
    const primary = receiver.events('primary', primarySecret)
    expect(
      primary.some((e) => e.type === 'message.status' && e.data.content?.text === 'Thanks, we got your message: ping'),
    ).toBe(true)
    expect(wf.deliveries.length).toBe(deliveries)
    expect(wf.runs).toHaveLength(1)
  })

  it('refuses (401) a delivery that is tampered with, unsigned, signed with another secret or too old; ignores a replay; accepts what the official Standard Webhooks signer signs', async () => {
    const wf = await workflow({ scope: 'session', sessionId, events: ['message.received'] })
    await wf.activate()
    await t.sim.contact(BORIS).send({ text: 'hello n8n' }, { to: ACCOUNT })
    await runsOf(wf, 1)
    const real = wf.deliveries.find((d) => d.status === 200)!
    const signed = (headers: Record<string, string>) => ({
      'content-type': 'application/json',
      'webhook-id': headers['webhook-id']!,
      'webhook-timestamp': headers['webhook-timestamp']!,
      'webhook-signature': headers['webhook-signature']!,
    })

    const tampered = real.raw.toString('utf8').replace('hello n8n', 'HELLO N8N')
    expect((await wf.post(signed(real.headers), tampered)).status).toBe(401)
    expect((await wf.post({ 'content-type': 'application/json' }, real.raw)).status).toBe(401)
    const secret = String(wf.staticData().secret)
    const other = new Webhook(`whsec_${randomBytes(24).toString('base64')}`)
    const id = `evt_forged_${randomBytes(4).toString('hex')}`
    const now = new Date()
    const body = real.raw.toString('utf8')
    const headersFor = (signer: Webhook, at: Date, eventId = id) => ({
      'content-type': 'application/json',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signer.sign(eventId, at, body),
    })
    expect((await wf.post(headersFor(other, now), body)).status).toBe(401)
    const tenMinutesAgo = new Date(now.getTime() - 10 * 60_000)
    expect((await wf.post(headersFor(new Webhook(secret), tenMinutesAgo), body)).status).toBe(401)
    expect(wf.runs).toHaveLength(1)

    // The gateway delivers at least once: the same webhook-id again starts nothing.
    expect(await wf.post(signed(real.headers), real.raw)).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    })
    expect(wf.runs).toHaveLength(1)

    // The node's verifier and the official package (which the gateway signs with) agree.
    expect((await wf.post(headersFor(new Webhook(secret), now), body)).status).toBe(200)
    await runsOf(wf, 2)
    await wf.deactivate()
  })

  it('listens to the whole workspace (sessions linked later too) and downloads a received photo into binary data through its downloadUrl', async () => {
    const wf = await workflow({
      scope: 'workspace',
      events: ['message.received'],
      options: { downloadMedia: true, binaryPropertyName: 'photo' },
    })
    await wf.activate()
    expect(await workspaceWebhooks()).toMatchObject([{ url: wf.url, events: ['message.received'] }])

    const later = await t.linkSession({ phone: OTHER_ACCOUNT, connect: { sessionName: 'n8n-later' } })
    const png = await fixtures.png()
    const messageId = await t.sim
      .contact(ANNA)
      .send({ image: Buffer.from(png), mimetype: 'image/png' }, { to: OTHER_ACCOUNT })
    const [run] = await runsOf(wf, 1)
    const item = run!.output('Trigger')[0]!
    expect(item.json).toMatchObject({
      type: 'message.received',
      sessionId: later.sessionId,
      data: { messageId, type: 'image', downloadUrl: expect.stringMatching(`^${baseUrl}/v1/media/`) },
    })
    expect(item.binary?.photo).toMatchObject({ mimeType: 'image/png' })
    expect(sha256(Buffer.from(item.binary!.photo!.data, 'base64'))).toBe(sha256(png))

    await wf.deactivate()
    expect(await workspaceWebhooks()).toEqual([])
  })

  it('keeps its webhook across activations, replaces it when its events change, re-adds one removed by hand and deactivates cleanly when it is gone', async () => {
    const wf = await workflow({ scope: 'session', sessionId, events: ['message.received'] })
    await wf.activate()
    const first = String(wf.staticData().webhookId)
    await wf.activate() // n8n restarted: the webhook it has is still right
    expect((await sessionWebhooks()).map((w) => w.webhookId)).toEqual([first])

    wf.trigger.parameters.events = ['message.received', 'session.status']
    await wf.activate()
    const [changed, ...more] = await sessionWebhooks()
    expect(more).toEqual([])
    expect(changed).toMatchObject({ url: wf.url, events: ['message.received', 'session.status'] })
    expect(changed.webhookId).not.toBe(first)

    expect(
      (await t.request(`/v1/session/${sessionId}/webhooks/${changed.webhookId}`, { method: 'DELETE' })).status,
    ).toBe(200)
    await wf.activate()
    const [readded] = await sessionWebhooks()
    expect(readded.webhookId).not.toBe(changed.webhookId)

    expect(
      (await t.request(`/v1/session/${sessionId}/webhooks/${readded.webhookId}`, { method: 'DELETE' })).status,
    ).toBe(200)
    await wf.deactivate()
    expect(wf.staticData().webhookId).toBeUndefined()
  })

  it('cannot subscribe to another workspace’s session: activation fails with the gateway’s 404 and adds nothing', async () => {
    const stranger = t.addWorkspace('n8n-stranger', 'paid').key
    const wf = await workflow({ scope: 'session', sessionId, events: [] }, stranger)
    const failure = await wf.activate().then(
      () => undefined,
      (error: { httpCode?: string }) => error,
    )
    expect(failure?.httpCode).toBe('404')
    expect(await sessionWebhooks()).toEqual([])
    expect(wf.staticData().webhookId).toBeUndefined()
  })
})
