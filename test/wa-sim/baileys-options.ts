// TEST-side helper: the Baileys settings that point an unmodified client at a simulator.
// The gateway does the same from GET /config when WA_SIMULATOR is set.
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys'
import { Agent } from 'node:https'
import type { SimulatorConfig } from './simulator'

export interface SimulatorBaileysOptions {
  waWebSocketUrl: string
  /** Used by Baileys' media upload (node:https request `agent`) on Node */
  fetchAgent: Agent
}

/** Trusts the simulator's Noise root key process-wide: Baileys reads WA_CERT_DETAILS at handshake time. */
export const trustSimulatorRootKey = (config: Pick<SimulatorConfig, 'rootPublicKey'>): void => {
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(config.rootPublicKey, 'base64')
}

/** Installs the root key and returns the socket options to spread into makeWASocket(). */
export const simulatorBaileysOptions = (config: SimulatorConfig): SimulatorBaileysOptions => {
  trustSimulatorRootKey(config)
  return {
    waWebSocketUrl: config.wsUrl,
    fetchAgent: new Agent({ ca: config.mediaCaPem, keepAlive: false }),
  }
}
