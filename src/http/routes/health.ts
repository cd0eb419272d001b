import { Hono } from 'hono'
import type { GatewayDatabase } from '../../db/database'
import type { WebVersionInfo } from '../../engine/whatsapp/port'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

/**
 * Liveness (the process answers) and readiness (the database answers). No auth: probes call them.
 * /health also names the WhatsApp Web version new connections announce (public anyway: WhatsApp
 * Web serves it to everyone), so an operator sees at once what a 405 wave is about.
 */
export function healthRoutes(db: GatewayDatabase, webVersion: () => WebVersionInfo) {
  return new Hono<AppEnv>()
    .get('/health', (c) => c.json({ status: 'ok', whatsappWebVersion: webVersion() }))
    .get('/ready', (c) => {
      try {
        db.$client.prepare('SELECT 1').get()
      } catch {
        throw new GatewayError('internal_error', 'Database is not answering')
      }
      return c.json({ status: 'ready' })
    })
}
