import { Agent } from 'node:https'
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys'
import { z } from 'zod'
import type { Logger } from '../../logger'
import { isBun } from '../../runtime/detect'
import type { MediaFetch } from './media-download'
import { trustSimulatorMediaHostOnBun } from './simulator-trust'

/** Where Baileys connects and how it trusts what answers. */
export interface NetworkTarget {
  /** undefined: Baileys' default, the real WhatsApp. */
  waWebSocketUrl?: string
  /** https agent for media uploads (trusts the simulator's media CA). */
  fetchAgent?: Agent
  /** fetch for downloading inbound media from WhatsApp's CDN (trusts the simulator's media CA). */
  mediaFetch: MediaFetch
}

/** Real WhatsApp: its CDN has public certificates, the runtime's own fetch trusts it. */
const plainFetch: MediaFetch = (url, init) => fetch(url, init)

/** A Worker (workerd): its fetch takes no CA option; `npm run dev:edge` trusts the simulator through NODE_EXTRA_CA_CERTS. */
const isWorkerd = () =>
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers'

/**
 * fetch trusting the simulator's media CA for downloads. Node's fetch takes an undici
 * dispatcher, from the undici package (Node's bundled copy is not importable), loaded only here
 * so Bun, the binary and Workers never load it; on Bun the global fetch already trusts the
 * simulator's media host (simulator-trust.ts).
 */
async function fetchTrusting(caPem: string): Promise<MediaFetch> {
  if (isWorkerd() || isBun()) return plainFetch
  const undici = 'undici' // a variable: bundlers for Bun and Workers must not pull undici in
  const { Agent: Dispatcher, fetch: undiciFetch } = (await import(undici)) as typeof import('undici')
  const dispatcher = new Dispatcher({ connect: { ca: caPem }, keepAliveTimeout: 1_000 })
  return (url, init) => undiciFetch(url, { ...init, dispatcher }) as unknown as Promise<Response>
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
  if (!simulatorUrl) return { mediaFetch: plainFetch }
  const response = await fetch(new URL('/config', simulatorUrl))
  if (!response.ok) throw new Error(`WA_SIMULATOR ${simulatorUrl} answered ${response.status} to GET /config`)
  const config = simulatorConfig.parse(await response.json())
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(config.rootPublicKey, 'base64')
  trustSimulatorMediaHostOnBun(config.mediaHost, config.mediaCaPem)
  logger.warn(
    { simulator: simulatorUrl, wsUrl: config.wsUrl },
    'WA_SIMULATOR is set: NOT talking to WhatsApp; every session connects to the simulator',
  )
  return {
    waWebSocketUrl: config.wsUrl,
    fetchAgent: new Agent({ ca: config.mediaCaPem, keepAlive: false }),
    mediaFetch: await fetchTrusting(config.mediaCaPem),
  }
}
