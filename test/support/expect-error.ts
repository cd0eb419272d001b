import { expect } from 'vitest'
import { GatewayError, type ErrorCode } from '../../src/errors'

/** Awaits a promise that must fail with a GatewayError of this code, and returns the error. */
export async function expectGatewayError(promise: Promise<unknown>, code: ErrorCode): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(GatewayError)
  expect((error as GatewayError).code).toBe(code)
  return error as GatewayError
}
