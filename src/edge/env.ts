import { loadConfig, type GatewayConfig } from '../config'
import type { SessionObject } from './session-object'
import type { WorkspaceObject } from './workspace-object'

/** The Worker's bindings (wrangler.toml) and vars: the same variable names as the Node process. */
export interface EdgeEnv {
  SESSIONS: DurableObjectNamespace<SessionObject>
  WORKSPACES: DurableObjectNamespace<WorkspaceObject>
  /** "true" enables POST /__edge/session/{id}/evict, for the eviction test only. */
  EDGE_TEST_HOOKS?: string
  [variable: string]: unknown
}

/** The gateway config from the Worker's vars and secrets, validated by the same schema as process.env. */
export function edgeConfig(env: EdgeEnv): GatewayConfig {
  const strings = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
  return loadConfig(strings)
}

/** A session's object is named by workspace and (normalised) session name: one name, one object. */
export const sessionObjectName = (workspace: string, sessionName: string) => JSON.stringify([workspace, sessionName])
