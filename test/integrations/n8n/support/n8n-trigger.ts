import type { IncomingMessage, ServerResponse } from 'node:http'
import type { IDataObject, INode, IWebhookData, IWorkflowExecuteAdditionalData } from 'n8n-workflow'
import { startLoopbackServer } from '../../../support/loopback-server'
import { buildWorkflow, execute, n8nCore, type WorkflowRun, type WorkflowSetup } from './n8n-engine'

export interface Delivery {
  headers: Record<string, string>
  raw: Buffer
  /** What the trigger answered. */
  status: number
}

export interface TriggeredWorkflow {
  /** The trigger's production webhook URL, as n8n computes it. */
  url: string
  /** The trigger node (its parameters can change between activations, as a user edits them). */
  trigger: INode
  /** The trigger node's static data (what n8n stores with the workflow). */
  staticData(): IDataObject
  /** Every request n8n's webhook endpoint got for the trigger, in arrival order. */
  deliveries: Delivery[]
  /** The executions deliveries started, in order. */
  runs: WorkflowRun[]
  /** What n8n does when the workflow is activated: checkExists, and create unless it answered true. */
  activate(): Promise<void>
  /** What n8n does when it is deactivated: delete. */
  deactivate(): Promise<void>
  /** A request to the trigger's endpoint as any client could send one. */
  post(headers: Record<string, string>, body: string | Buffer): Promise<{ status: number; body: unknown }>
  close(): Promise<void>
}

/**
 * A workflow whose first node is a webhook trigger, served the way n8n's webhook server serves
 * one: n8n-core's HookContext runs the node's webhook lifecycle (activation, deactivation), and
 * each POST to its production URL (on a loopback port) goes through n8n-core's WebhookContext
 * to the node's `webhook()`; the items it answers start an execution by n8n-core's engine.
 * The request object is Node's, with what n8n's body parser adds (`rawBody`, `body`); the
 * response object has Express's `status()` and `json()`.
 */
export async function startTriggeredWorkflow(setup: Omit<WorkflowSetup, 'webhookBaseUrl'>): Promise<TriggeredWorkflow> {
  const deliveries: Delivery[] = []
  const runs: WorkflowRun[] = []
  let active = false
  const server = await startLoopbackServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => void serveWebhook(req, res, Buffer.concat(chunks)))
  })
  const { workflow, additionalData } = buildWorkflow({ ...setup, webhookBaseUrl: server.url('/webhook') })
  const trigger = workflow.getNode(setup.nodes[0]!.name)!
  const nodeType = workflow.nodeTypes.getByNameAndVersion(trigger.type, trigger.typeVersion)
  const description = nodeType.description.webhooks![0]!
  const webhookData = (data: IWorkflowExecuteAdditionalData): IWebhookData => ({
    httpMethod: description.httpMethod as IWebhookData['httpMethod'],
    node: trigger.name,
    path: String(description.path),
    webhookDescription: description,
    workflowId: workflow.id,
    workflowExecuteAdditionalData: data,
  })
  const lifecycle = nodeType.webhookMethods![description.name]!
  const hookContext = () => {
    const data = additionalData()
    return new n8nCore.HookContext(workflow, trigger, data, 'webhook', 'activate', webhookData(data))
  }
  const url = hookContext().getNodeWebhookUrl(description.name)!

  async function serveWebhook(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    const reply = (status: number, body: unknown) => {
      if (res.headersSent) return
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
    const delivery: Delivery = { headers, raw, status: 0 }
    deliveries.push(delivery)
    res.on('finish', () => (delivery.status = res.statusCode))
    if (!active || req.method !== 'POST' || server.url(req.url ?? '') !== url)
      return reply(404, { message: 'The requested webhook is not registered.' })
    // What n8n's body parser leaves on the request.
    req.rawBody = raw
    let body: unknown = {}
    try {
      body = JSON.parse(raw.toString('utf8'))
    } catch {}
    Object.assign(req, { body })
    const response = Object.assign(res, {
      status: (code: number) => {
        res.statusCode = code
        return response
      },
      json: (value: unknown) => reply(res.statusCode, value),
    })
    const data = Object.assign(additionalData(), { httpRequest: req, httpResponse: response })
    try {
      const context = new n8nCore.WebhookContext(workflow, trigger, data, 'webhook', webhookData(data), [], null)
      const result = await nodeType.webhook!.call(context)
      if (result.noWebhookResponse) return
      reply(200, { message: 'Workflow was started' })
      if (result.workflowData)
        runs.push(await execute(workflow, additionalData(), trigger.name, result.workflowData[0]!, 'webhook'))
    } catch (error) {
      reply(500, { message: (error as Error).message })
    }
  }

  return {
    url,
    trigger,
    staticData: () => workflow.getStaticData('node', trigger),
    deliveries,
    runs,
    async activate() {
      if (!(await lifecycle.checkExists!.call(hookContext()))) await lifecycle.create!.call(hookContext())
      active = true
    },
    async deactivate() {
      active = false
      await lifecycle.delete!.call(hookContext())
    },
    async post(headers, body) {
      const response = await fetch(url, { method: 'POST', headers, body })
      return { status: response.status, body: await response.json().catch(() => null) }
    },
    close: () => server.close(),
  }
}
