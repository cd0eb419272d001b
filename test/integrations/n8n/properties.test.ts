import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { gatewayDocument, generatedFiles } from '../../../integrations/n8n/openapi/write'
import { WaSessionGateway } from '../../../integrations/n8n/nodes/WaSessionGateway/WaSessionGateway.node'

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const
const node = new WaSessionGateway().description
const byName = (name: string) => node.properties.filter((p) => p.name === name)
const shownFor = (operation: string) =>
  node.properties.filter((p) => p.displayOptions?.show?.operation?.includes(operation))

/**
 * The action node's fields are generated from the OpenAPI document at build time and committed
 * (integrations/n8n: npm run build): a route added to the gateway without regenerating fails here.
 */
describe('the n8n action node against the OpenAPI document', () => {
  it('is what the generator writes from the current document (the action’s fields, the trigger’s event types)', () => {
    for (const file of generatedFiles()) expect(readFileSync(file.path, 'utf8'), file.path.pathname).toBe(file.text)
  })

  it('has an action for every operation of the document, with its method and path', () => {
    const document = gatewayDocument() as any
    const resources = byName('resource')[0]!.options!.map((o: any) => o.value)
    const actions = byName('operation').flatMap((list) =>
      list.options!.map((o: any) => ({
        resource: list.displayOptions!.show!.resource![0],
        method: o.routing.request.method,
        url: o.routing.request.url as string,
      })),
    )
    const operations = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
      methods.filter((m) => item[m]).map((m) => ({ path, method: m.toUpperCase(), op: item[m] })),
    )
    expect(operations.length).toBeGreaterThanOrEqual(47)
    for (const { path, method, op } of operations) {
      // The node's URL names each path parameter by the same name ({{$parameter["id"]}} for {id}).
      const url = `=${path.replace(/\{([^}]+)\}/g, '{{$parameter["$1"]}}')}`
      expect(resources, op.operationId).toContain(op.tags[0])
      expect(actions, op.operationId).toContainEqual({ resource: op.tags[0], method, url })
    }
    expect(actions).toHaveLength(operations.length)
  })

  it('asks for what an operation requires and keeps the rest under Additional Fields', () => {
    const text = shownFor('Send Text')
    expect(text.filter((p) => p.required).map((p) => p.name)).toEqual(['sessionId', 'phone', 'message'])
    // Deprecated aliases (`to`, `text`) are not offered.
    expect(text.map((p) => p.name)).toEqual(['sessionId', 'phone', 'message', 'additionalFields'])
    const extra = text.find((p) => p.name === 'additionalFields')!
    expect(extra.options!.map((o: any) => o.name)).toEqual(['idempotency-key', 'linkPreview', 'quoteId'])
  })

  it('picks sessions from GET /v1/session/all, in every operation that names one', () => {
    const pickers = node.properties.filter((p) => ['sessionId', 'session_id', 'id'].includes(p.name))
    const sessionOps = node.properties.filter((p) => p.name === 'id').map((p) => p.displayOptions!.show!.operation![0])
    expect(sessionOps.sort()).toEqual([
      'Create Session Webhook',
      'Delete Session',
      'Delete Session Chatwoot',
      'Delete Session Webhook',
      'Get Session Chatwoot',
      'Get Session Privacy',
      'Get Session Qr',
      'List Session Webhooks',
      'Put Session Chatwoot',
      'Restart Session',
      'Update Session',
      'Update Session Privacy',
      'Update Session Profile',
      'Update Session Webhook',
    ])
    for (const picker of pickers) {
      expect(picker.type, JSON.stringify(picker.displayOptions)).toBe('options')
      expect((picker.typeOptions as any).loadOptions.routing.request).toEqual({ method: 'GET', url: '/v1/session/all' })
    }
  })

  it('takes media from a URL or from binary data for each media send, and can serve as an AI tool', () => {
    for (const operation of ['Send Image', 'Send Audio', 'Send Video', 'Send Document', 'Send Sticker']) {
      const binary = shownFor(operation).find((p) => p.name === 'binaryPropertyName')!
      expect(binary.displayOptions!.show!.mediaSource).toEqual(['binary'])
      expect((binary.routing!.send!.preSend as unknown[])[0]).toBeTypeOf('function')
    }
    expect(node.usableAsTool).toBe(true)
  })
})
