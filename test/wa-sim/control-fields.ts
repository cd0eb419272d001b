// Reading the control API's JSON bodies: strings and the options every contact send takes.
import { SimulatorError } from './errors'

export const text = (body: Record<string, unknown>, field: string, required = true): string | undefined => {
  const value = body[field]
  if (typeof value === 'string' && value.length > 0) return value
  if (required) throw new SimulatorError('invalid_request', `"${field}" must be a non-empty string`)
  return undefined
}

export const sendOptions = (body: Record<string, unknown>) => ({
  to: text(body, 'to', false),
  fromLid: body.fromLid === true,
  group: text(body, 'group', false),
})
