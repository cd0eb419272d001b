import { Agent } from 'node:https'
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys'
import { z } from 'zod'
import type { Logger } from '../../logger'
import { trustSimulatorMediaHostOnBun } from './simulator-trust'

/** Where Baileys connects and how it trusts what answers. */
export interface NetworkTarget {
  /** undefined: Baileys' default, the real WhatsApp. */
  waWebSocketUrl?: string
  /** https agent for media uploads (trusts the simulator's media CA). */
  fetchAgent?: Agent
}

const simulatorConfig = z.object({
  wsUrl: z.string(),
  rootPublicKey: z.string(),
  mediaCaPem: z.string(),
  mediaHost: z.string(),
})

/**
 * The one place that knows a simulator may stand in for WhatsApp. With WA_SIMULATOR set,
 * read its /config and point Baileys at it: its websocket URL, its certificate root key
 * (Baileys' exported WA_CERT_DETAILS, process-wide) and its media host's CA (an https.Agent on
 * Node; on Bun, see simulator-trust.ts).
 */
export async function resolveNetworkTarget(simulatorUrl: string | undefined, logger: Logger): Promise<NetworkTarget> {
  if (!simulatorUrl) return {}
  const response = await fetch(new URL('/config', simulatorUrl))
  if (!response.ok) throw new Error(`WA_SIMULATOR ${simulatorUrl} answered ${response.status} to GET /config`)
  const config = simulatorConfig.parse(await response.json())
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(config.rootPublicKey, 'base64')
  trustSimulatorMediaHostOnBun(config.mediaHost, config.mediaCaPem)
  logger.warn(
    { simulator: simulatorUrl, wsUrl: config.wsUrl },
    'WA_SIMULATOR is set: NOT talking to WhatsApp; every session connects to the simulator',
  )
  return { waWebSocketUrl: config.wsUrl, fetchAgent: new Agent({ ca: config.mediaCaPem, keepAlive: false }) }
}
