// The control API's routes for a phone's history (history-seed.ts, history-blob.ts): seed it
// before the phone scans, and send hand-made history files to a linked device. Strict: only the
// fields named, whole numbers in bounds (checked by checkSeed / checkBlob), a phone of digits.
import type { Handler } from './control-api'
import { text } from './control-fields'
import { SimulatorError } from './errors'
import type { HistorySyncTypeName } from './history-send'
import type { WhatsAppSimulator } from './simulator'

const SEED_FIELDS = ['phone', 'chats', 'messagesPerChat', 'days', 'groups', 'media', 'messagesPerChunk']
const BLOB_FIELDS = ['phone', 'syncType', 'inflatedBytes', 'raw', 'progress', 'chunkOrder']

const onlyFields = (body: Record<string, unknown>, allowed: string[]): void => {
  const unknown = Object.keys(body).filter((field) => !allowed.includes(field))
  if (unknown.length)
    throw new SimulatorError('invalid_request', `unknown field(s) ${unknown.map((f) => `"${f}"`).join(', ')}`)
}

const phoneOf = (body: Record<string, unknown>): string => {
  const phone = text(body, 'phone')!
  if (!/^\d{6,15}$/.test(phone)) throw new SimulatorError('invalid_request', '"phone" must be 6 to 15 digits')
  return phone
}

/** A number field as given (its bounds are checked where the seed or blob is): anything but a number is refused here. */
const numberOf = (body: Record<string, unknown>, field: string): number | undefined => {
  const value = body[field]
  if (value === undefined) return undefined
  if (typeof value !== 'number') throw new SimulatorError('invalid_request', `"${field}" must be a whole number`)
  return value
}

export const historyRoutes = (sim: WhatsAppSimulator): [string, RegExp, Handler][] => [
  [
    'POST',
    /^\/history$/,
    (_, body) => {
      onlyFields(body, SEED_FIELDS)
      return sim.seedHistory(phoneOf(body), {
        chats: numberOf(body, 'chats') as number,
        messagesPerChat: numberOf(body, 'messagesPerChat') as number,
        days: numberOf(body, 'days') as number,
        groups: numberOf(body, 'groups'),
        media: numberOf(body, 'media'),
        messagesPerChunk: numberOf(body, 'messagesPerChunk'),
      })
    },
  ],
  [
    'POST',
    /^\/history\/blob$/,
    async (_, body) => {
      onlyFields(body, BLOB_FIELDS)
      const raw = body.raw
      if (raw !== undefined && (typeof raw !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(raw)))
        throw new SimulatorError('invalid_request', '"raw" must be base64')
      const account = sim.account(phoneOf(body))
      const id = await account.sendHistoryBlob({
        syncType: text(body, 'syncType') as HistorySyncTypeName,
        inflatedBytes: numberOf(body, 'inflatedBytes'),
        raw: typeof raw === 'string' ? Buffer.from(raw, 'base64') : undefined,
        progress: numberOf(body, 'progress'),
        chunkOrder: numberOf(body, 'chunkOrder'),
      })
      return { id }
    },
  ],
  ['GET', /^\/accounts\/(\d+)\/history$/, ([phone]) => sim.account(phone!).historySent()],
]
