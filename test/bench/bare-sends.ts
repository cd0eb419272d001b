/**
 * The reference of the sends bench: bare Baileys sockets (bare-sockets.ts) sending texts with
 * `sendMessage`, with the very sessions the gateway linked.
 */
import type { GatewayDatabase } from '../../src/db/database'
import { openStoredSockets } from './bare-sockets'

export interface BareSockets {
  /** Sends text `n` from socket `n % sockets` to the contact, as the gateway's bench does. */
  send(n: number): Promise<void>
  /** Closes the sockets and writes their changed keys and creds back to wa_auth. */
  stop(): Promise<void>
}

export async function openBareSockets(
  database: GatewayDatabase,
  sessionIds: string[],
  wsUrl: string,
  contactJid: string,
): Promise<BareSockets> {
  const { sockets, stop } = await openStoredSockets(database, sessionIds, wsUrl)
  return {
    async send(n) {
      await sockets[((n % sockets.length) + sockets.length) % sockets.length]!.sendMessage(contactJid, {
        text: `bench ${n}`,
      })
    },
    stop,
  }
}
