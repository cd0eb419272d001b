import { z } from 'zod'
import { errorCodes } from '../errors'

export const ErrorSchema = z
  .object({
    error: z.enum(Object.keys(errorCodes) as [keyof typeof errorCodes, ...(keyof typeof errorCodes)[]]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({
    id: 'Error',
    description: 'Every error answer. `error` is a closed set of codes; `details` is free-form.',
    example: {
      error: 'validation_error',
      message: 'Invalid request: sessionName: Too small: expected string to have >=1 characters',
      details: { fields: [{ path: 'sessionName', message: 'Too small: expected string to have >=1 characters' }] },
    },
  })
