import { mkdtempSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Core from 'n8n-core'
import type * as N8nWorkflow from 'n8n-workflow'
import type {
  ICredentialDataDecryptedObject,
  ICredentialType,
  IExecuteFunctions,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  INodeType,
  INodeTypes,
  IRun,
  IRunExecutionData,
  IWorkflowExecuteAdditionalData,
  IConnections,
  Workflow,
} from 'n8n-workflow'

// n8n keeps its instance settings (an encryption key) under N8N_USER_FOLDER: a temp folder, set
// before n8n-core is loaded, so nothing is written to the home folder.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-user-'))

// n8n-core and n8n-workflow are the package's devDependencies (integrations/n8n is a workspace:
// n8n-core wants zod 3 as a peer, the gateway zod 4), installed under it. Their ESM builds import
// files without extensions, which Node's ESM loader refuses: their CommonJS builds are what n8n
// itself runs. (tsconfig.json's `paths` points the type imports at the same copies.)
const require = createRequire(new URL('../../../../integrations/n8n/package.json', import.meta.url))
const core = require('n8n-core') as typeof Core
const n8nWorkflow = require('n8n-workflow') as typeof N8nWorkflow

/** A node that starts a workflow with the items it is given (json, and binary data made by n8n's own helper). */
export const FIXTURE_TYPE = 'test.fixture'
export interface FixtureItem {
  json: Record<string, unknown>
  binary?: Record<string, { bytes: Uint8Array; fileName: string; mimeType: string }>
}
const fixtureNode = (items: FixtureItem[]): INodeType => ({
  description: {
    displayName: 'Fixture',
    name: 'fixture',
    group: ['input'],
    version: 1,
    description: 'Test items',
    defaults: { name: 'Fixture' },
    inputs: ['main'],
    outputs: ['main'],
    properties: [],
  },
  async execute(this: IExecuteFunctions) {
    const out: INodeExecutionData[] = []
    for (const item of items) {
      const binary: INodeExecutionData['binary'] = {}
      for (const [key, file] of Object.entries(item.binary ?? {})) {
        binary[key] = await this.helpers.prepareBinaryData(Buffer.from(file.bytes), file.fileName, file.mimeType)
      }
      out.push({ json: item.json as INodeExecutionData['json'], ...(item.binary ? { binary } : {}) })
    }
    return [out]
  },
})

/**
 * What n8n's server does with a credential type's `authenticate` (its own CredentialsHelper
 * lives in the `n8n` package, not in n8n-core): each generic property's value is an expression
 * over `$credentials`, resolved by the workflow's expression engine.
 */
class CredentialsHelper extends n8nWorkflow.ICredentialsHelper {
  constructor(
    private readonly types: Record<string, ICredentialType>,
    private readonly data: Record<string, ICredentialDataDecryptedObject>,
  ) {
    super()
  }
  getParentTypes() {
    return []
  }
  isCredentialUsableByNode() {
    return true
  }
  async runPreAuthentication() {
    return undefined
  }
  async authenticate(
    credentials: ICredentialDataDecryptedObject,
    typeName: string,
    request: IHttpRequestOptions,
    workflow: Workflow,
    node: INode,
  ): Promise<IHttpRequestOptions> {
    const auth = this.types[typeName]?.authenticate
    if (!auth || typeof auth === 'function' || auth.type !== 'generic') return request
    const resolve = (value: unknown) =>
      typeof value === 'string' && value.startsWith('=')
        ? workflow.expression.getSimpleParameterValue(
            node,
            value,
            'internal',
            { $credentials: credentials },
            undefined,
            '',
          )
        : value
    const headers = { ...request.headers } as Record<string, unknown>
    for (const [name, value] of Object.entries(auth.properties.headers ?? {})) headers[name] = resolve(value)
    return { ...request, headers: headers as IHttpRequestOptions['headers'] }
  }
  async preAuthentication() {
    return undefined
  }
  async getCredentials(): Promise<never> {
    throw new Error('not used by declarative nodes')
  }
  async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
    const data = this.data[type]
    if (!data) throw new Error(`no credentials of type ${type}`)
    return data
  }
  async updateCredentials() {}
  async updateCredentialsOauthTokenData() {}
  getCredentialsProperties() {
    return []
  }
}

export interface WorkflowRun {
  run: IRun
  /** The items a node output (first run, first output). */
  output(nodeName: string): INodeExecutionData[]
  /** The error a node stopped with, if any. */
  error(nodeName: string): (Error & { description?: string; httpCode?: string }) | undefined
}

/** A workflow's nodes and what n8n gives them: node types, credential types, decrypted credentials. */
export interface WorkflowSetup {
  nodeTypes: Record<string, INodeType>
  credentialTypes: Record<string, ICredentialType>
  credentials: Record<string, ICredentialDataDecryptedObject>
  /** Chained in order: each node's output is the next one's input. */
  nodes: (Omit<INode, 'id' | 'position' | 'typeVersion'> & Partial<Pick<INode, 'id'>>)[]
  /** Where n8n serves production webhooks (a trigger's getNodeWebhookUrl starts with it). */
  webhookBaseUrl?: string
}

/** The n8n Workflow object of a setup (its staticData is where triggers keep what they registered) and the additionalData of a run. */
export function buildWorkflow(setup: WorkflowSetup): {
  workflow: Workflow
  additionalData: () => IWorkflowExecuteAdditionalData
} {
  const types = setup.nodeTypes
  const nodeTypes: INodeTypes = {
    getByName: (type) => types[type]!,
    getByNameAndVersion: (type) => {
      if (!types[type]) throw new Error(`unknown node type ${type}`)
      return types[type]
    },
    getKnownTypes: () => ({}),
  }
  const nodes: INode[] = setup.nodes.map((node, index) => ({
    id: `node-${index}`,
    typeVersion: 1,
    position: [index * 200, 0],
    ...node,
  }))
  const connections: IConnections = {}
  for (let i = 0; i + 1 < nodes.length; i++) {
    connections[nodes[i]!.name] = { main: [[{ node: nodes[i + 1]!.name, type: 'main', index: 0 }]] }
  }
  const workflow = new n8nWorkflow.Workflow({
    id: 'test',
    name: 'test',
    nodes,
    connections,
    nodeTypes,
    active: false,
    staticData: {},
    settings: { executionOrder: 'v1' },
  })
  const webhookBaseUrl = setup.webhookBaseUrl ?? 'http://127.0.0.1/webhook'
  const credentialsHelper = new CredentialsHelper(setup.credentialTypes, setup.credentials)
  const additionalData = () =>
    ({
      executionId: '1',
      hooks: new core.ExecutionLifecycleHooks('manual', '1', {
        id: 'test',
        name: 'test',
        active: false,
        activeVersionId: null,
        isArchived: false,
        createdAt: new Date(),
        updatedAt: new Date(),
        nodes,
        connections,
      }),
      credentialsHelper,
      currentNodeParameters: undefined,
      restApiUrl: 'http://127.0.0.1/rest',
      instanceBaseUrl: 'http://127.0.0.1/',
      webhookBaseUrl,
      webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
      webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
      formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
      variables: {},
      executeWorkflow: async () => {
        throw new Error('no sub-workflows here')
      },
      logAiEvent: () => {},
    }) as unknown as IWorkflowExecuteAdditionalData
  return { workflow, additionalData }
}

/**
 * Runs a workflow with n8n-core's execution engine (WorkflowExecute, the RoutingNode that runs
 * declarative nodes) from `start` with the items given, as n8n runs one a trigger started: the
 * trigger's items pass through it to the nodes after it.
 */
export async function execute(
  workflow: Workflow,
  additionalData: IWorkflowExecuteAdditionalData,
  start: string,
  items: INodeExecutionData[],
  mode: 'manual' | 'webhook' = 'manual',
): Promise<WorkflowRun> {
  const node = workflow.getNode(start)!
  const runExecutionData: IRunExecutionData = n8nWorkflow.createRunExecutionData({
    executionData: { nodeExecutionStack: [{ node, data: { main: [items] }, source: null }] },
  })
  const run = await new core.WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow)
  const taskOf = (name: string) => run.data.resultData.runData[name]?.[0]
  return {
    run,
    output: (name) => taskOf(name)?.data?.main?.[0] ?? [],
    error: (name) => taskOf(name)?.error as WorkflowRun['error'] extends (n: string) => infer E ? E : never,
  }
}

/** `Fixture` (the input items) → the nodes given, chained in order, run once. */
export async function runWorkflow(
  options: Omit<WorkflowSetup, 'nodes'> & {
    input: FixtureItem[]
    nodes: WorkflowSetup['nodes']
  },
): Promise<WorkflowRun> {
  const { workflow, additionalData } = buildWorkflow({
    ...options,
    nodeTypes: { ...options.nodeTypes, [FIXTURE_TYPE]: fixtureNode(options.input) },
    nodes: [{ name: 'Fixture', type: FIXTURE_TYPE, parameters: {} }, ...options.nodes],
  })
  return execute(workflow, additionalData(), 'Fixture', [{ json: {} }])
}

export { core as n8nCore }
