import { type ClientResponse, hc } from 'hono/client'
import type { AppType } from '../../src'

/** The app's typed client (hc<AppType>): paths, bodies and answers inferred from the route declarations. */
export type GatewayClient = ReturnType<typeof hc<AppType>>

/** A typed client of an in-process app that calls it with `key` (app.request: no socket). */
export const clientOf = (
  app: { request(input: string | URL | Request, init?: RequestInit): Response | Promise<Response> },
  key: string,
): GatewayClient =>
  hc<AppType>('http://gateway.test', {
    fetch: (input: string | URL | Request, init?: RequestInit) => app.request(input, init),
    headers: { authorization: `Bearer ${key}` },
  })

/** One declared answer as status and parsed body: narrowing on `status` types the body. */
export type Answer<R> =
  R extends ClientResponse<infer Body, infer Status, infer _Format> ? { status: Status; body: Body } : never

/** Reads a typed client's answer as `{ status, body }` (its JSON body, or its text for other types). */
export async function answerOf<R extends ClientResponse<unknown, number, string>>(
  call: Promise<R>,
): Promise<Answer<R>> {
  const response = await call
  const type = response.headers.get('content-type') ?? ''
  const body = /json/.test(type) ? await response.json() : await response.text()
  return { status: response.status, body } as Answer<R>
}
