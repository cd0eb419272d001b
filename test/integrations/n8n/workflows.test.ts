import { createHash } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import type { INodeParameters, INodeType } from 'n8n-workflow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WaSessionGatewayApi } from '../../../integrations/n8n/credentials/WaSessionGatewayApi.credentials'
import { WaSessionGateway } from '../../../integrations/n8n/nodes/WaSessionGateway/WaSessionGateway.node'
import { fixtures } from '../../support/media-fixtures'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { runWorkflow } from './support/n8n-engine'

const ACCOUNT = '15550031001'
const ANNA = '15551231001'
const BORIS = '15551231002'
const NODE_TYPE = 'n8n-nodes-wa-session-gateway.waSessionGateway'
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Workflows run by n8n's own execution engine (n8n-core's WorkflowExecute and the RoutingNode
 * that runs declarative nodes, from the npm registry) with the package's node and credentials,
 * against a gateway served over loopback HTTP and the WhatsApp simulator: what the simulated
 * contacts receive is what the workflow sent.
 */
describe('the n8n nodes in n8n-core’s engine', () => {
  let t: SimulatedGateway
  let server: ServerType
  let baseUrl: string
  let sessionId: string

  beforeAll(async () => {
    t = await startSimulatedGateway({ config: { bodyLimitBytes: 4 * 1024 * 1024 } })
    t.sim.addContact(ANNA)
    t.sim.addContact(BORIS)
    sessionId = await t.pairByQr('n8n', ACCOUNT)
    await new Promise<void>((resolve) => {
      server = serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve())
    })
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 60_000)
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
    await t?.close()
  })

  const run = (
    parameters: INodeParameters,
    options: { input?: Parameters<typeof runWorkflow>[0]['input']; apiKey?: string } = {},
  ) =>
    runWorkflow({
      nodeTypes: { [NODE_TYPE]: new WaSessionGateway() },
      credentialTypes: { waSessionGatewayApi: new WaSessionGatewayApi() },
      credentials: { waSessionGatewayApi: { baseUrl: `${baseUrl}/`, apiKey: options.apiKey ?? t.key } },
      input: options.input ?? [{ json: {} }],
      nodes: [
        {
          name: 'Gateway',
          type: NODE_TYPE,
          parameters,
          credentials: { waSessionGatewayApi: { id: '1', name: 'gateway' } },
        },
      ],
    })

  it('sends a text per input item, the phone and text taken from each item by expressions', async () => {
    const result = await run(
      {
        resource: 'Messages',
        operation: 'Send Text',
        sessionId,
        phone: '={{ $json.phone }}',
        message: '=Hello {{ $json.name }}',
      },
      { input: [{ json: { phone: ANNA, name: 'Anna' } }, { json: { phone: BORIS, name: 'Boris' } }] },
    )
    expect(result.error('Gateway')).toBeUndefined()
    const [anna, boris] = result.output('Gateway').map((item) => item.json as any)
    expect(anna).toMatchObject({ type: 'text', content: { text: 'Hello Anna' } })
    const received = await t.sim.contact(ANNA).waitForMessage((m) => m.id === anna.messageId)
    expect(received.message.conversation ?? received.message.extendedTextMessage?.text).toBe('Hello Anna')
    const other = await t.sim.contact(BORIS).waitForMessage((m) => m.id === boris.messageId)
    expect(other.message.conversation ?? other.message.extendedTextMessage?.text).toBe('Hello Boris')
  })

  it('sends an image from the binary data of the previous node, byte for byte', async () => {
    const png = await fixtures.png()
    const result = await run(
      {
        resource: 'Messages',
        operation: 'Send Image',
        sessionId,
        phone: ANNA,
        mediaSource: 'binary',
        binaryPropertyName: 'photo',
        additionalFields: { caption: 'from n8n' },
      },
      { input: [{ json: {}, binary: { photo: { bytes: png, fileName: 'photo.png', mimeType: 'image/png' } } }] },
    )
    expect(result.error('Gateway')).toBeUndefined()
    const record = result.output('Gateway')[0]!.json as any
    expect(record).toMatchObject({ type: 'image', content: { caption: 'from n8n', mimetype: 'image/png' } })
    const received = await t.sim.contact(ANNA).waitForMessage((m) => m.id === record.messageId)
    expect(received.message.imageMessage).toMatchObject({ caption: 'from n8n', mimetype: 'image/png', width: 320 })
    const media = await t.sim.contact(ANNA).media(record.messageId)
    expect(sha256(media.bytes)).toBe(sha256(png))
  })

  it('creates a group with the simulated contacts in it', async () => {
    const result = await run({
      resource: 'Groups',
      operation: 'Create Group',
      sessionId,
      subject: 'From n8n',
      participants: JSON.stringify([ANNA, BORIS]),
    })
    expect(result.error('Gateway')).toBeUndefined()
    const group = result.output('Gateway')[0]!.json as any
    const info = t.sim.group(group.group.groupId).info()
    expect(info.subject).toBe('From n8n')
    expect(info.participants.map((p) => p.phone).sort()).toEqual([ACCOUNT, ANNA, BORIS].sort())
  })

  it('passes the credential test (its request, run as n8n runs it: a declarative request) only with a valid key', async () => {
    const credential = new WaSessionGatewayApi()
    // What n8n's credential tester does with a `test.request`: a node with it as requestDefaults.
    const tester: INodeType = {
      description: {
        displayName: 'Credential test',
        name: 'credentialTest',
        group: ['output'],
        version: 1,
        description: '',
        defaults: { name: 'Credential test' },
        inputs: ['main'],
        outputs: ['main'],
        credentials: [{ name: credential.name, required: true }],
        requestDefaults: credential.test.request,
        properties: [],
      },
    }
    const test = (apiKey: string) =>
      runWorkflow({
        nodeTypes: { 'test.credentialTest': tester },
        credentialTypes: { [credential.name]: credential },
        credentials: { [credential.name]: { baseUrl: `${baseUrl}/`, apiKey } },
        input: [{ json: {} }],
        nodes: [
          {
            name: 'Test',
            type: 'test.credentialTest',
            parameters: {},
            credentials: { [credential.name]: { id: '1', name: 'gateway' } },
          },
        ],
      })
    const valid = await test(t.key)
    expect(valid.error('Test')).toBeUndefined()
    expect(valid.output('Test')[0]!.json).toMatchObject({ id: expect.any(String), name: 'test' })
    expect((await test('wrong')).error('Test')?.httpCode).toBe('401')
  })

  it('stops with the gateway’s error when the API key is wrong, and sends nothing', async () => {
    const result = await run(
      { resource: 'Messages', operation: 'Send Text', sessionId, phone: ANNA, message: 'never' },
      { apiKey: 'wrong' },
    )
    const error = result.error('Gateway')
    expect(error?.httpCode).toBe('401')
    expect(result.output('Gateway')).toEqual([])
  })
})
