import { Hono } from 'hono'
import type { GatewayDatabase } from '../../db/database'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

/** Liveness (the process answers) and readiness (the database answers). No auth: probes call them. */
export function healthRoutes(db: GatewayDatabase) {
  return new Hono<AppEnv>()
    .get('/health', (c) => c.json({ status: 'ok' }))
    .get('/ready', (c) => {
      try {
        db.$client.prepare('SELECT 1').get()
      } catch {
        throw new GatewayError('internal_error', 'Database is not answering')
      }
      return c.json({ status: 'ready' })
    })
}
