import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HostResolver } from '../../../src/net/host-resolver'
import { createSessionRow } from '../../support/session-row'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const SECRET = 'hunter2-proxy'
/** Names the tests use; nothing is ever contacted at these addresses (no session connects through them). */
const resolver: HostResolver = async (host) => {
  const answers: Record<string, string> = {
    'rebind.example.com': '127.0.0.1',
    'metadata.example.com': '169.254.169.254',
    'squid.example.com': '10.20.0.5',
  }
  const address = answers[host]
  if (!address) throw new Error('ENOTFOUND')
  return [{ address, family: 4 }]
}

/**
 * A workspace names its proxy deliberately and private networks are a proxy's usual home, but
 * a workspace key must never turn the proxy into a way to the gateway host's own services.
 */
describe('proxyUrl from a workspace', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({ resolver })
  })
  afterAll(() => t.close())

  const update = async (id: string, body: unknown, key = t.key) => {
    const response = await t.request(`/v1/session/update/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    })
    return { status: response.status, text: await response.text() }
  }

  it('refuses loopback, link-local, unspecified and names resolving there, and never echoes the password', async () => {
    const id = createSessionRow(t, 'guarded', 'expired')
    for (const host of [
      '127.0.0.1:8080',
      'localhost:3128',
      'api.localhost',
      '[::1]:1080',
      '[::ffff:127.0.0.1]',
      '169.254.169.254',
      '0.0.0.0:1080',
      'rebind.example.com:3128',
      'metadata.example.com',
    ]) {
      for (const scheme of ['http', 'socks5']) {
        const answer = await update(id, { proxyUrl: `${scheme}://u:${SECRET}@${host}` })
        expect(answer.status, `${scheme}://${host}`).toBe(400)
        expect(answer.text).toContain('proxyUrl')
        expect(answer.text).not.toContain(SECRET)
      }
      const connect = await t.connect({
        sessionName: `c-${host.replace(/\W/g, '')}`,
        proxyUrl: `http://u:${SECRET}@${host}`,
      })
      expect(connect.status).toBe(400)
      expect(JSON.stringify(connect.body)).not.toContain(SECRET)
    }
    // Nothing was stored, and no session was created by the refused connects.
    expect((await t.listSessions()).map((s) => s.sessionName)).toEqual(['guarded'])
    expect((await t.listSessions())[0]?.proxyUrl).toBeNull()
  })

  it('refuses malformed, foreign-scheme, oversized and credential-bomb URLs with a 400, never a 500', async () => {
    const id = createSessionRow(t, 'malformed', 'expired')
    for (const proxyUrl of [
      'not a url',
      'ftp://proxy.example.com:21',
      'socks4://proxy.example.com:1080',
      'http://proxy.example.com:3128/path',
      'http://proxy.example.com:3128/?q=1',
      `http://:${SECRET}@proxy.example.com:3128`,
      `http://u:${'x'.repeat(300)}@proxy.example.com:3128`,
      `http://u:%E0%A4%A@proxy.example.com`,
      `http://u:a%0d%0aX-Injected:1@proxy.example.com`,
      `http://proxy.example.com:${'9'.repeat(3000)}`,
      `http://${'a'.repeat(5000)}.example.com`,
      '',
      42,
    ]) {
      const answer = await update(id, { proxyUrl })
      expect(answer.status, String(proxyUrl).slice(0, 60)).toBe(400)
      expect(answer.text).not.toContain(SECRET)
      expect(answer.text.length).toBeLessThan(2_000)
    }
  })

  it('accepts a proxy on a private network, answers it masked, and contacts nothing until a connection', async () => {
    const id = createSessionRow(t, 'private-net', 'expired')
    const answer = await update(id, { proxyUrl: `http://ops:${SECRET}@squid.example.com:3128` })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text).proxyUrl).toBe('http://ops:****@squid.example.com:3128')
    expect(answer.text).not.toContain(SECRET)
    const socks = await update(id, { proxyUrl: `socks5://ops:${SECRET}@10.0.0.5` })
    expect(JSON.parse(socks.text).proxyUrl).toBe('socks5://ops:****@10.0.0.5')
    const removed = await update(id, { proxyUrl: null })
    expect(JSON.parse(removed.text).proxyUrl).toBeNull()
  })

  it('answers 404 for another workspace’s session and changes nothing', async () => {
    const id = createSessionRow(t, 'theirs', 'expired')
    await update(id, { proxyUrl: 'http://squid.example.com:3128' })
    const other = t.addWorkspace('other-team')
    const answer = await update(id, { proxyUrl: 'http://10.9.9.9:3128' }, other.key)
    expect(answer.status).toBe(404)
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'not_found' })
    expect((await t.listSessions()).find((s) => s.sessionId === id)?.proxyUrl).toBe('http://squid.example.com:3128')
  })
})
