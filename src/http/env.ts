import type { PlanName } from '../config'
import type { Workspace } from '../db/schema'
import type { RequestCredential } from './request-credential'

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
    /** What bearerAuth accepted, for an answer that outlives the request (an event stream ends with its credential). */
    authenticatedBy: RequestCredential
    /** Set by handshakeAuth on GET /v1/events/ws, which authenticates itself: bearerAuth stands aside. */
    handshake: true
  }
}
