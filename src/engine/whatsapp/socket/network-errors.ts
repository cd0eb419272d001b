import { EngineError } from '../port'

/** Runs one network operation; whatever it throws leaves as an EngineError services can map. */
export async function withNetworkErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw asEngineError(error)
  }
}

export function asEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error
  const status = (error as { output?: { statusCode?: number } }).output?.statusCode
  const message = (error as Error)?.message ?? String(error)
  if (status === 408 || /timed? ?out/i.test(message)) return new EngineError('timeout', message)
  if (status === 428 || /connection closed/i.test(message)) return new EngineError('not_connected', message)
  // A query WhatsApp answered <error code="404" text="item-not-found"/> (Baileys: Boom with data 404).
  const code = (error as { data?: unknown }).data
  if (code === 404 || message === 'item-not-found') return new EngineError('not_found', message, 404)
  // Any other client error WhatsApp answered (401 not-authorized, 403 forbidden, 406, 409, 410...)
  if (typeof code === 'number' && code >= 400 && code < 500) return new EngineError('refused', message, code)
  return new EngineError('upstream', message)
}
