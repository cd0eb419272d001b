// The control API's routes for polls, votes and reactions from contacts, and for what the
// account's own phone sends (see contact-addons.ts and phone-send.ts).
import type { Handler } from './control-api'
import { sendOptions, text } from './control-fields'
import { SimulatorError } from './errors'
import type { WhatsAppSimulator } from './simulator'

const strings = (body: Record<string, unknown>, field: string): string[] => {
  const value = body[field]
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw new SimulatorError('invalid_request', `"${field}" must be an array of strings`)
  return value as string[]
}

const selectable = (body: Record<string, unknown>): number | undefined => {
  const value = body.selectableCount
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new SimulatorError('invalid_request', '"selectableCount" must be a whole number')
  return value
}

const pollOf = (body: Record<string, unknown>) => ({
  poll: { question: text(body, 'question')!, options: strings(body, 'options'), selectableCount: selectable(body) },
})

const emojiOf = (body: Record<string, unknown>): string => {
  if (typeof body.emoji !== 'string')
    throw new SimulatorError('invalid_request', '"emoji" must be a string ("" removes)')
  return body.emoji
}

export const addonRoutes = (sim: WhatsAppSimulator): [string, RegExp, Handler][] => [
  [
    'POST',
    /^\/contacts\/(\d+)\/polls$/,
    async ([phone], body) => ({ messageId: await sim.contact(phone!).send(pollOf(body), sendOptions(body)) }),
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/votes$/,
    async ([phone], body) => ({
      messageId: await sim
        .contact(phone!)
        .send({ vote: { pollId: text(body, 'pollId')!, options: strings(body, 'options') } }, sendOptions(body)),
    }),
  ],
  [
    'POST',
    /^\/contacts\/(\d+)\/reactions$/,
    async ([phone], body) => ({
      messageId: await sim
        .contact(phone!)
        .send({ react: { messageId: text(body, 'messageId')!, emoji: emojiOf(body) } }, sendOptions(body)),
    }),
  ],
  [
    'POST',
    /^\/accounts\/(\d+)\/phone-messages$/,
    async ([phone], body) => {
      const to = text(body, 'to')!
      const addressing = body.addressing === 'pn' ? 'pn' : 'lid'
      const content =
        body.question !== undefined
          ? pollOf(body)
          : body.emoji !== undefined
            ? { react: { messageId: text(body, 'messageId')!, emoji: emojiOf(body) } }
            : { text: text(body, 'text')! }
      return { messageId: await sim.account(phone!).sendFromPhone(to, content, { addressing }) }
    },
  ],
]
