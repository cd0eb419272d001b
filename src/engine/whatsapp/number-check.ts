import { jidDecode, USyncQuery, USyncUser, type WASocket } from '@whiskeysockets/baileys'
import { EngineError, type NumberCheck } from './types'

interface USyncRow {
  id: string
  contact?: boolean
  lid?: string
}

/**
 * Asks WhatsApp which numbers have an account, with their LIDs, in ONE usync query
 * (Baileys' onWhatsApp drops the LID). The answer comes back keyed by JID, so results are
 * matched to the request by number; a number the network does not list does not exist.
 */
export async function checkNumbers(socket: WASocket, phones: string[]): Promise<NumberCheck[]> {
  const unique = [...new Set(phones)]
  const query = new USyncQuery().withContactProtocol().withLIDProtocol()
  for (const phone of unique) query.withUser(new USyncUser().withPhone(`+${phone}`))
  const result = await socket.executeUSyncQuery(query)
  // Baileys rc14 resolves a timed-out query as undefined instead of throwing: that is no answer,
  // never an answer that every number is unknown.
  if (!result) throw new EngineError('timeout', 'WhatsApp did not answer the usync query')

  const byNumber = new Map<string, USyncRow>()
  for (const row of (result?.list ?? []) as USyncRow[]) {
    const user = jidDecode(row.id)?.user
    if (user) byNumber.set(user, row)
  }
  return phones.map((phone) => {
    const row = byNumber.get(phone)
    if (!row?.contact) return { phone, exists: false }
    // The network may not give a LID (older accounts, or a privacy setting): then it is left out.
    const lid = row.lid ? row.lid : undefined
    return { phone, exists: true, jid: row.id, ...(lid ? { lid } : {}) }
  })
}
