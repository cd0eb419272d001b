import type { BinaryNode, WASocket } from '@whiskeysockets/baileys'
import { EngineError } from '../port'

/**
 * One iq to WhatsApp's server that must be answered. rc14's query() resolves `undefined` when
 * nothing answers in time (its waitForMessage swallows the timeout), which Baileys' own helpers
 * read as an empty answer (an empty block list, a personal account, a change made): here it is
 * a timeout. An answered error throws as Baileys throws it (a Boom with WhatsApp's code).
 */
export async function serverQuery(socket: WASocket, node: BinaryNode, what: string): Promise<BinaryNode> {
  const result = await socket.query(node)
  if (!result) throw new EngineError('timeout', `WhatsApp did not answer ${what} in time`)
  return result
}

/** WhatsApp's error code of an answered query (Baileys: a Boom whose data is the code). */
export const answeredCode = (error: unknown): number | undefined => {
  const code = (error as { data?: unknown } | undefined)?.data
  return typeof code === 'number' ? code : undefined
}
