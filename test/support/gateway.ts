import { join } from 'node:path'
import type { Clock } from '../../src/clock'
import type { GatewayConfig } from '../../src/config'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway'
import { createLogger, silentLogger, type Logger } from '../../src/logger'
import type { HostResolver } from '../../src/net/host-resolver'
import type { MediaTools } from '../../src/media/port'
import { createApiKey } from '../../src/services/api-keys'
import { createWorkspace, listWorkspaces } from '../../src/services/workspaces'
import { clientOf, type GatewayClient } from './client'
import { tempDir } from './temp-dir'

export interface TestGateway {
  gateway: Gateway
  databasePath: string
  /** A request to the app with the workspace's key (override headers to test auth). */
  request(path: string, init?: RequestInit): Promise<Response>
  /** The typed client (hc<AppType>) with the workspace's key. */
  api: GatewayClient
  /** The typed client with another key (another workspace's, for isolation tests). */
  apiAs(key: string): GatewayClient
  /** Makes another workspace with a key, for isolation tests. */
  addWorkspace(name: string, plan?: 'free' | 'paid'): { key: string; workspaceId: string }
  key: string
  close(): Promise<void>
}

/** Silent, unless TEST_LOG_LEVEL (e.g. debug) asks to see what the gateway and Baileys do. */
const testLogger = () => (process.env.TEST_LOG_LEVEL ? createLogger(process.env.TEST_LOG_LEVEL) : silentLogger())

export interface TestGatewayOptions {
  config?: Partial<GatewayConfig>
  clock?: Clock
  databasePath?: string
  plan?: 'free' | 'paid'
  media?: MediaTools
  resolver?: HostResolver
  /** Texts' link previews (e.g. a guarded previewer that reaches only the test's page server). */
  linkPreviews?: GatewayOptions['linkPreviews']
  /** Instead of the silent (or TEST_LOG_LEVEL) logger, e.g. one that captures its lines. */
  logger?: Logger
  /** Stands in for web.whatsapp.com's version answer (never asked in tests otherwise). */
  fetchWaVersion?: GatewayOptions['fetchWaVersion']
  /** The engine, e.g. Baileys built with other dependencies than the gateway's own. */
  engine?: GatewayOptions['engine']
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dir = options.databasePath ? undefined : tempDir()
  const databasePath = options.databasePath ?? join(dir!.path, 'gateway.db')
  // As `serve` opens it: every suite runs beside the background checkpointer.
  const database = await openDatabase(databasePath, { checkpointInBackground: true })
  const gateway = createGateway({
    database,
    config: options.config,
    clock: options.clock,
    media: options.media,
    resolver: options.resolver,
    linkPreviews: options.linkPreviews,
    fetchWaVersion: options.fetchWaVersion,
    engine: options.engine,
    logger: options.logger ?? testLogger(),
  })
  await gateway.start()

  const addWorkspace = (name: string, plan: 'free' | 'paid' = 'free') => {
    const workspace = createWorkspace(gateway.context, { name, plan })
    return { key: createApiKey(gateway.context, { workspace: workspace.id }).key, workspaceId: workspace.id }
  }
  // On a restart over the same file the workspace is already there: give it a fresh key.
  const existing = listWorkspaces(gateway.context).find((w) => w.name === 'test')
  const key = existing
    ? createApiKey(gateway.context, { workspace: existing.id }).key
    : addWorkspace('test', options.plan ?? 'free').key

  return {
    gateway,
    databasePath,
    key,
    addWorkspace,
    api: clientOf(gateway.app, key),
    apiAs: (other) => clientOf(gateway.app, other),
    request: (path, init = {}) => {
      const headers = new Headers(init.headers)
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${key}`)
      return Promise.resolve(gateway.app.request(path, { ...init, headers }))
    },
    async close() {
      await gateway.stop()
      closeDatabase(database)
      dir?.cleanup()
    },
  }
}

export const jsonBody = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
