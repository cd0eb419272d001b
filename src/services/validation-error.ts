import { GatewayError } from '../errors'

export interface FieldError {
  path: string
  message: string
}

/** The 400 every invalid input gets, whether zod or a service found the problem. */
export function validationError(fields: FieldError[], message?: string): GatewayError {
  const summary = fields.map((f) => `${f.path}: ${f.message}`).join('; ')
  return new GatewayError('validation_error', message ?? `Invalid request: ${summary}`, { fields })
}
