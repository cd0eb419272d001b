import { Agent } from 'node:https'
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys'
import { z } from 'zod'
import type { Logger } from '../../../logger'
import { trustSimulatorMediaHostOnBun } from './simulator-trust'

/**
 * Where one session's connections go and how: the one surface media code uses. Each socket
 * gets its own (see sessionTarget): with a proxy, every agent below goes through it.
 */
export interface NetworkTarget {
  /** undefined: Baileys' default, the real WhatsApp. */
  waWebSocketUrl?: string
  /** The WebSocket's agent (Baileys' `agent`): the proxy's, or undefined for a direct connection. */
  agent?: Agent
  /** node:http(s) agent for media uploads (Baileys' `fetchAgent`) and proxied downloads: the proxy's, and/or trusting the simulator's media CA. */
  fetchAgent?: Agent
}

/** Where WhatsApp is for this gateway: its own servers, or the simulator (its URL and media CA). */
export interface WhatsAppEndpoint {
  waWebSocketUrl?: string
  /** PEM of the simulator's media CA; undefined for WhatsApp (public certificates). */
  mediaCaPem?: string
  /**
   * Media hosts (host:port) downloads may use beside WhatsApp's own, past the address guard
   * although private: the simulator's, on loopback, and only because WA_SIMULATOR names it.
   */
  trustedMediaHosts?: readonly string[]
}

const simulatorConfig = z.object({
  wsUrl: z.string(),
  rootPublicKey: z.string(),
  mediaCaPem: z.string(),
  mediaHost: z.string().optional(),
})

/**
 * The one place that knows a simulator may stand in for WhatsApp. With WA_SIMULATOR set,
 * read its /config and point Baileys at it: its websocket URL, its certificate root key
 * (Baileys' exported WA_CERT_DETAILS, process-wide), its media host's CA (an https.Agent on
 * Node; on Bun, see simulator-trust.ts) and its media host, the one media host on loopback a
 * download may reach.
 */
export async function resolveEndpoint(simulatorUrl: string | undefined, logger: Logger): Promise<WhatsAppEndpoint> {
  if (!simulatorUrl) return {}
  const response = await fetch(new URL('/config', simulatorUrl))
  if (!response.ok) throw new Error(`WA_SIMULATOR ${simulatorUrl} answered ${response.status} to GET /config`)
  const config = simulatorConfig.parse(await response.json())
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(config.rootPublicKey, 'base64')
  if (config.mediaHost) trustSimulatorMediaHostOnBun(config.mediaHost, config.mediaCaPem)
  logger.warn(
    { simulator: simulatorUrl, wsUrl: config.wsUrl },
    'WA_SIMULATOR is set: NOT talking to WhatsApp; every session connects to the simulator',
  )
  return {
    waWebSocketUrl: config.wsUrl,
    mediaCaPem: config.mediaCaPem,
    ...(config.mediaHost ? { trustedMediaHosts: [config.mediaHost] } : {}),
  }
}

/** The target of sessions without a proxy: one per engine, its agents shared. */
export function directTarget(endpoint: WhatsAppEndpoint): NetworkTarget {
  const ca = endpoint.mediaCaPem
  return {
    waWebSocketUrl: endpoint.waWebSocketUrl,
    ...(ca ? { fetchAgent: new Agent({ ca, keepAlive: false }) } : {}),
  }
}
