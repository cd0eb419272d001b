import { sign } from 'hono/jwt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readEventStream, type OpenStream } from '../../../../support/event-stream'
import { writeFileElsewhere } from '../../../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../../../support/simulated-gateway'

const ADMIN_KEY = 'admin-key-0123456789-0123456789-abcdef'
const JWT_SECRET = 'jwt-secret-0123456789-0123456789-abcdef'
const ACCOUNT = '15550029501'
const CONTACT = '15551239501'

/** Resolves true when the stream ends within `ms`, false when it is still open then. */
const endsWithin = (stream: OpenStream, ms: number) =>
  Promise.race([stream.ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false))])

describe('an event stream lives no longer than the credential it was opened with', () => {
  let t: SimulatedGateway
  const open: OpenStream[] = []
  beforeAll(async () => {
    t = await startSimulatedGateway({
      plan: 'paid',
      config: { adminApiKey: ADMIN_KEY, jwtSecret: JWT_SECRET },
      simulator: { contacts: [CONTACT] },
    })
    await t.pairByQr('revocation', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    for (const stream of open) stream.close()
    await t.close()
  })

  const stream = async (credential: string) => {
    const abort = new AbortController()
    const response = await t.request('/v1/events', {
      headers: { authorization: `Bearer ${credential}` },
      signal: abort.signal,
    })
    const opened = readEventStream(response, abort)
    open.push(opened)
    expect(opened.status).toBe(200)
    return opened
  }
  const admin = (path: string, method = 'GET', body?: unknown) =>
    t.gateway.app.request(path, {
      method,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const issueKey = async () => (await (await admin('/v1/admin/keys', 'POST', { workspace: 'test' })).json()) as any
  /** A contact writes to the session: a message.received with its text, on every stream of the workspace. */
  const receive = async (text: string, witness: OpenStream) => {
    await t.sim.contact(CONTACT).send({ text }, { to: ACCOUNT })
    await witness.until((list) => list.some((e) => e.event === 'message.received' && e.data.includes(text)))
  }
  const texts = (stream: OpenStream) => stream.events.filter((e) => e.event === 'message.received').map((e) => e.data)

  it('ends the stream of a key revoked through DELETE /v1/admin/keys/{id}; nothing arrives after', async () => {
    const { keyId, key } = await issueKey()
    const revoked = await stream(key)
    const witness = await stream(t.key)
    await receive('before the revocation', revoked)

    expect((await admin(`/v1/admin/keys/${keyId}`, 'DELETE')).status).toBe(200)
    expect(await endsWithin(revoked, 2_000)).toBe(true)
    expect(revoked.comments).toContain('credential revoked')
    await receive('after the revocation', witness)
    expect(texts(revoked).some((data) => data.includes('after the revocation'))).toBe(false)
    expect(texts(revoked).some((data) => data.includes('before the revocation'))).toBe(true)
    // The stream of the key still valid goes on
    expect(await endsWithin(witness, 300)).toBe(false)
    expect((await t.request('/v1/events', { headers: { authorization: `Bearer ${key}` } })).status).toBe(401)
  })

  it('ends the stream of a key another process revoked in the shared database', async () => {
    const { keyId, key } = await issueKey()
    const revoked = await stream(key)
    await writeFileElsewhere(t.databasePath, 'UPDATE api_keys SET revoked_at = ? WHERE id = ?', Date.now(), keyId)
    expect(await endsWithin(revoked, 2_000)).toBe(true)
    await receive('after the revocation elsewhere', await stream(t.key))
    expect(texts(revoked)).toEqual([])
  })

  it('ends a JWT’s stream at its exp', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2
    const token = await sign({ workspace: 'test', exp }, JWT_SECRET, 'HS256')
    const expiring = await stream(token)
    await receive('while the token is valid', expiring)
    expect(await endsWithin(expiring, 4_000)).toBe(true)
    const endedAt = Date.now()
    expect(endedAt).toBeGreaterThanOrEqual(exp * 1000)
    expect(endedAt).toBeLessThan(exp * 1000 + 1_000)
    expect(expiring.comments).toContain('credential expired')
  })
})
