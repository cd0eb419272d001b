import type { GatewayDatabase } from '../../db/database'
import type { Logger } from '../../logger'
import { clearAuthState, isPaired, loadCreds } from './auth-state'
import { SessionConnection, type ConnectionTiming } from './connection'
import { resolveNetworkTarget, type NetworkTarget } from './network-target'
import { checkNumbers } from './number-check'
import { EngineError, type EngineEvent, type OpenOptions, type WhatsAppEngine } from './types'

export interface BaileysEngineDeps {
  db: GatewayDatabase
  logger: Logger
  timing: ConnectionTiming
  /** Control URL of the project's simulator, or undefined for WhatsApp itself. */
  simulatorUrl?: string
  emit(event: EngineEvent): void
}

const VERBOSE = new Set(['debug', 'trace'])

/** The WhatsApp engine over Baileys: owns every live socket, keyed by session id, in memory. */
export function createBaileysEngine(deps: BaileysEngineDeps): WhatsAppEngine {
  const connections = new Map<string, SessionConnection>()
  let target: Promise<NetworkTarget> | undefined
  const networkTarget = () => (target ??= resolveNetworkTarget(deps.simulatorUrl, deps.logger))

  const connected = (sessionId: string) => {
    const socket = connections.get(sessionId)?.socket
    if (!socket) throw new EngineError('not_connected', 'The session is not connected')
    return socket
  }

  const withNetworkErrors = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      if (error instanceof EngineError) throw error
      const status = (error as { output?: { statusCode?: number } }).output?.statusCode
      const message = (error as Error).message ?? String(error)
      if (status === 408 || /timed? ?out/i.test(message)) throw new EngineError('timeout', message)
      throw new EngineError('upstream', message)
    }
  }

  const hasCredentials = (sessionId: string) => {
    const creds = loadCreds(deps.db, sessionId)
    return creds ? isPaired(creds) : false
  }

  return {
    async open(sessionId: string, options: OpenOptions) {
      await connections.get(sessionId)?.end()
      const logger = deps.logger.child({ sessionId })
      const connection = new SessionConnection(sessionId, options, {
        db: deps.db,
        logger,
        // Baileys is chatty at info; its own lines show only from debug on.
        baileysLogger: logger.child({ lib: 'baileys' }, { level: VERBOSE.has(deps.logger.level) ? deps.logger.level : 'warn' }),
        target: await networkTarget(),
        timing: deps.timing,
        emit: deps.emit,
        onStopped: (stopped) => {
          if (connections.get(sessionId) === stopped) connections.delete(sessionId)
        },
      })
      const restoring = hasCredentials(sessionId)
      connections.set(sessionId, connection)
      connection.start()
      return restoring ? null : connection.prompt
    },

    async close(sessionId) {
      await connections.get(sessionId)?.end()
    },

    async logout(sessionId) {
      const connection = connections.get(sessionId)
      if (connection) await connection.logout()
      else clearAuthState(deps.db, sessionId)
    },

    hasCredentials,

    isConnected: (sessionId) => Boolean(connections.get(sessionId)?.socket),

    setAutoRejectCalls(sessionId, enabled) {
      connections.get(sessionId)?.setAutoRejectCalls(enabled)
    },

    checkNumbers: (sessionId, phones) => withNetworkErrors(() => checkNumbers(connected(sessionId), phones)),

    async stopAll() {
      await Promise.all([...connections.values()].map((connection) => connection.end()))
    },
  }
}
