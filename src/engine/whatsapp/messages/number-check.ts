import { jidDecode, USyncQuery, USyncUser, type BinaryNode, type WASocket } from '@whiskeysockets/baileys'
import { type USyncQueryProtocol, USyncContactProtocol } from '../baileys-internals'
import { EngineError, type NumberCheck } from '../port'

interface ContactAnswer {
  exists: boolean
  /** The number as asked (`+<digits>`), which WhatsApp echoes back. */
  query?: string
}

/**
 * Baileys' contact protocol keeps only "in or out"; WhatsApp also echoes the number as asked,
 * which is the only reliable way to match an answer given in another form (Brazil's ninth
 * digit: asked 55 11 91234-5678, answered 55 11 1234-5678).
 */
function echoedContactProtocol(): USyncQueryProtocol {
  const contact = new USyncContactProtocol()
  return {
    name: contact.name,
    getQueryElement: () => contact.getQueryElement(),
    getUserElement: (user) => contact.getUserElement(user),
    parser(node: BinaryNode): ContactAnswer {
      const exists = contact.parser(node)
      const content = node.content
      const query =
        content instanceof Uint8Array
          ? Buffer.from(content).toString('utf8')
          : typeof content === 'string'
            ? content
            : undefined
      return { exists, ...(query ? { query } : {}) }
    },
  }
}

interface USyncRow {
  id: string
  contact?: ContactAnswer
  lid?: string
}

const digits = (value: string) => value.replace(/\D/g, '')

/**
 * Asks WhatsApp which numbers have an account, with their LIDs, in ONE usync query (Baileys'
 * onWhatsApp drops the LID). Answers are matched to the request by the echoed query, else by
 * the JID's number; a number the network does not list does not exist.
 */
export async function checkNumbers(socket: WASocket, phones: string[]): Promise<NumberCheck[]> {
  const unique = [...new Set(phones)]
  const query = new USyncQuery().withLIDProtocol()
  query.protocols.push(echoedContactProtocol())
  for (const phone of unique) query.withUser(new USyncUser().withPhone(`+${phone}`))
  const result = await socket.executeUSyncQuery(query)
  // Baileys rc14 resolves a timed-out query as undefined instead of throwing: that is no answer,
  // never an answer that every number is unknown.
  if (!result) throw new EngineError('timeout', 'WhatsApp did not answer the usync query')

  const byNumber = new Map<string, USyncRow>()
  for (const row of (result.list ?? []) as USyncRow[]) {
    const asked = row.contact?.query ? digits(row.contact.query) : undefined
    const user = jidDecode(row.id)?.user
    if (asked) byNumber.set(asked, row)
    else if (user && !byNumber.has(user)) byNumber.set(user, row)
  }
  const answers: NumberCheck[] = phones.map((phone) => {
    const row = byNumber.get(phone)
    if (!row?.contact?.exists) return { phone, exists: false }
    // The network may not give a LID (older accounts, or a privacy setting): then it is left out.
    return { phone, exists: true, jid: row.id, ...(row.lid ? { lid: row.lid } : {}) }
  })
  // Remembered as Baileys remembers what it learns itself: a send to the LID then names the number.
  const pairs = answers.flatMap((a) => (a.jid && a.lid ? [{ lid: a.lid, pn: a.jid }] : []))
  if (pairs.length > 0) await socket.signalRepository.lidMapping.storeLIDPNMappings(pairs)
  return answers
}
