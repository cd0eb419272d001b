// The control API's bench route: a contact sends N texts to an account inside the simulator, as
// fast as it can or at a given rate, so a benchmark's load is not one HTTP call per message. Each
// text says its index and the wall-clock time it was sent ("<prefix> <index> <epoch ms>"), so a
// receiver on the same machine computes the latency and checks the order. Strict: only the fields
// named, whole numbers in bounds.
import type { Handler } from './control-api'
import { text } from './control-fields'
import { SimulatorError } from './errors'
import type { WhatsAppSimulator } from './simulator'

const FIELDS = ['to', 'count', 'perSecond', 'prefix']
const MAX_COUNT = 1_000_000

const wholeNumber = (body: Record<string, unknown>, field: string, min: number, max: number): number | undefined => {
  const value = body[field]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new SimulatorError('invalid_request', `"${field}" must be a whole number from ${min} to ${max}`)
  return value
}

export interface BurstResult {
  sent: number
  /** Epoch ms of the first send and when the last one was handed to the account's connection. */
  startedAt: number
  finishedAt: number
  messagesPerSecond: number
  firstId: string
  lastId: string
}

/**
 * Sends one after another (a contact's Signal session is a chain: its messages are encrypted in
 * order); with `perSecond`, each waits for its slot on a fixed schedule, and a late one goes at once.
 */
export async function sendBurst(
  sim: WhatsAppSimulator,
  phone: string,
  options: { to: string; count: number; perSecond?: number; prefix?: string },
): Promise<BurstResult> {
  const contact = sim.contact(phone)
  const prefix = options.prefix ?? 'bench'
  const startedAt = Date.now()
  const ids: string[] = []
  for (let i = 0; i < options.count; i++) {
    if (options.perSecond) {
      const due = startedAt + (i * 1000) / options.perSecond
      const wait = due - Date.now()
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait))
    }
    ids.push(await contact.send({ text: `${prefix} ${i} ${Date.now()}` }, { to: options.to }))
  }
  const finishedAt = Date.now()
  return {
    sent: ids.length,
    startedAt,
    finishedAt,
    messagesPerSecond: Math.round((ids.length * 1000) / Math.max(1, finishedAt - startedAt)),
    firstId: ids[0] ?? '',
    lastId: ids.at(-1) ?? '',
  }
}

export const benchRoutes = (sim: WhatsAppSimulator): [string, RegExp, Handler][] => [
  [
    'POST',
    /^\/bench\/contacts\/(\d+)\/texts$/,
    ([phone], body) => {
      const unknown = Object.keys(body).filter((field) => !FIELDS.includes(field))
      if (unknown.length)
        throw new SimulatorError('invalid_request', `unknown field(s) ${unknown.map((f) => `"${f}"`).join(', ')}`)
      const prefix = text(body, 'prefix', false)
      if (prefix !== undefined && !/^\S{1,32}$/.test(prefix))
        throw new SimulatorError('invalid_request', '"prefix" must be 1 to 32 characters without spaces')
      return sendBurst(sim, phone!, {
        to: text(body, 'to')!,
        count: wholeNumber(body, 'count', 1, MAX_COUNT) ?? 1,
        perSecond: wholeNumber(body, 'perSecond', 1, 100_000),
        prefix,
      })
    },
  ],
]
