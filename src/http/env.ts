import type { PlanName } from '../config'
import type { Workspace } from '../db/schema'

/** Per-request values every handler can read, typed. */
export interface AppEnv {
  Variables: {
    requestId: string
    /** Set by bearerAuth on every /v1 route. */
    workspace: Workspace
    /** The plan in force for this request: the workspace's, or a JWT's `plan` claim. */
    plan: PlanName
    /** SHA-256 (hex) of the presented credential, set by bearerAuth: the rate limiter's key, so it is hashed once per request. */
    credentialHash: string
  }
}
