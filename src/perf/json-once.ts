import type { Context, TypedResponse } from 'hono'
import type { JSONParsed } from 'hono/utils/types'

/**
 * An optimisation (bench: authed `GET /v1/session/all` req/s, `test/bench/throughput.ts`).
 *
 * `c.json(value, 200)` for values that are frozen and shared by many requests (a cached
 * session list): each is serialized once and its text sent again while it is still the one
 * served, instead of a JSON.stringify per request (the largest cost of a list under load).
 * The texts live as long as their values (a WeakMap per endpoint, made by the factory).
 */
export function jsonOnce() {
  const texts = new WeakMap<object, string>()
  return <T extends object>(c: Context, value: T): Response & TypedResponse<JSONParsed<T>, 200, 'json'> => {
    let text = texts.get(value)
    if (text === undefined) {
      text = JSON.stringify(value)
      texts.set(value, text)
    }
    // Typed as c.json's answer: the body is exactly JSON.stringify(value), as c.json would send.
    return c.body(text, 200, { 'content-type': 'application/json' }) as unknown as Response &
      TypedResponse<JSONParsed<T>, 200, 'json'>
  }
}
