/**
 * The one Worker route without a credential: a message.received downloadUrl
 * (`GET /v1/media/{token}`). The Worker cannot check the token (the secret lives in each session
 * object's database), so it routes by what the token claims, workspace and session, and the
 * session's object verifies the signature as on Node. Whatever does not route is the same 403
 * as a bad signature, so forged tokens learn nothing about which workspaces or sessions exist.
 */
import { GatewayError } from '../errors'
import { readMediaToken } from '../services/media/signed-url'
import { sessionObjectName, type EdgeEnv } from './env'

const refused = () => new GatewayError('forbidden', 'This download link is not valid')

export async function routeSignedMedia(env: EdgeEnv, request: Request, token: string): Promise<Response> {
  const claims = readMediaToken(token)
  if (!claims || claims.workspace.length > 100 || claims.sessionId.length > 100) throw refused()
  const index = env.WORKSPACES.get(env.WORKSPACES.idFromName(claims.workspace))
  const name = await index.locate(claims.sessionId)
  if (!name) throw refused()
  const session = env.SESSIONS.get(env.SESSIONS.idFromName(sessionObjectName(claims.workspace, name)))
  return session.handle(new Request(request.url, { method: 'GET', headers: request.headers }))
}
