import { networkInterfaces } from 'node:os'
import { isIP } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HostResolver } from '../../../src/net/host-resolver'
import { createSessionRow } from '../../support/session-row'
import { startTestGateway, type TestGateway } from '../../support/gateway'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const SECRET = 'hunter2-proxy'
/** This host's own addresses, as the gateway finds them (loopback, and e.g. fd00::2 on eth0). */
const ownAddresses = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .map((entry) => entry.address.replace(/%.*$/, ''))
/** Names the tests use; nothing is ever contacted at these addresses (no session connects through them). */
const resolver: HostResolver = async (host) => {
  const answers: Record<string, string> = {
    'rebind.example.com': '127.0.0.1',
    'metadata.example.com': '169.254.169.254',
    'squid.example.com': '10.20.0.5',
    'squid.corp.example': '192.168.7.7',
    'public.example.com': '93.184.216.34',
    'self.example.com': ownAddresses.find((address) => !address.startsWith('127.') && address !== '::1') ?? '::1',
  }
  const address = answers[host]
  if (!address) throw new Error('ENOTFOUND')
  return [{ address, family: isIP(address) === 6 ? 6 : 4 }]
}
const bracketed = (address: string) => (isIP(address) === 6 ? `[${address}]` : address)

/** PUT /v1/session/update/{id} with a JSON body; answers the status and the raw text. */
const updateOn = async (t: TestGateway, id: string, body: unknown, key = t.key) => {
  const response = await t.request(`/v1/session/update/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  })
  return { status: response.status, text: await response.text() }
}

/**
 * A workspace key must never turn its proxy into a way to the gateway host's own services or
 * into the networks behind it: only public addresses, unless the operator allows more.
 */
describe('proxyUrl from a workspace', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({ resolver })
  })
  afterAll(() => t.close())

  const update = (id: string, body: unknown, key = t.key) => updateOn(t, id, body, key)

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

  it('refuses a proxy on a private network (literal or by name) when the operator allows none', async () => {
    const id = createSessionRow(t, 'private-net', 'expired')
    // Refused as written or as resolved: none of these is ever contacted.
    for (const host of [
      '10.0.0.5',
      '172.16.3.4:3128',
      '192.168.1.10',
      '100.64.0.1',
      '[fd12:3456::1]:1080',
      '[::ffff:10.0.0.5]',
      'squid.example.com:3128',
    ]) {
      const answer = await update(id, { proxyUrl: `socks5://ops:${SECRET}@${host}` })
      expect(answer.status, host).toBe(400)
      expect(JSON.parse(answer.text)).toMatchObject({ error: 'validation_error' })
      expect(answer.text).toMatch(/proxyUrl.*private/)
      expect(answer.text).not.toContain(SECRET)
    }
    expect((await t.listSessions()).find((s) => s.sessionId === id)?.proxyUrl).toBeNull()
  })

  it('refuses every address of the gateway host itself, as written or behind a name', async () => {
    const id = createSessionRow(t, 'own-host', 'expired')
    expect(ownAddresses.length).toBeGreaterThan(0)
    for (const host of [...ownAddresses.map(bracketed), 'self.example.com']) {
      const answer = await update(id, { proxyUrl: `http://${host}:3128` })
      expect(answer.status, host).toBe(400)
    }
  })

  it('accepts a public proxy, answers it masked, and contacts nothing until a connection', async () => {
    const id = createSessionRow(t, 'public-net', 'expired')
    const answer = await update(id, { proxyUrl: `http://ops:${SECRET}@public.example.com:3128` })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text).proxyUrl).toBe('http://ops:****@public.example.com:3128')
    expect(answer.text).not.toContain(SECRET)
    const removed = await update(id, { proxyUrl: null })
    expect(JSON.parse(removed.text).proxyUrl).toBeNull()
  })

  it('answers 404 for another workspace’s session and changes nothing', async () => {
    const id = createSessionRow(t, 'theirs', 'expired')
    await update(id, { proxyUrl: 'http://public.example.com:3128' })
    const other = t.addWorkspace('other-team')
    const answer = await update(id, { proxyUrl: 'http://10.9.9.9:3128' }, other.key)
    expect(answer.status).toBe(404)
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'not_found' })
    expect((await t.listSessions()).find((s) => s.sessionId === id)?.proxyUrl).toBe('http://public.example.com:3128')
  })
})

/**
 * PROXY_ALLOWED_NETWORKS: the operator's proxy networks and hosts. What it lists a workspace may
 * name; the rest of the private space stays closed, and so does the gateway host itself unless
 * an entry names its address exactly.
 */
describe('proxyUrl with the operator’s allowed proxy networks', () => {
  let t: TestGateway
  let everywhere: TestGateway
  beforeAll(async () => {
    t = await startTestGateway({
      resolver,
      config: { proxyAllowedNetworks: ['10.0.0.0/8', 'fd12::/16', 'squid.corp.example'] },
    })
    // Every address allowed by network: the host's own still need an entry of their own.
    everywhere = await startTestGateway({ resolver, config: { proxyAllowedNetworks: ['0.0.0.0/0', '::/0'] } })
  })
  afterAll(async () => {
    await t.close()
    await everywhere.close()
  })

  it('accepts a proxy inside a listed network or on a listed host, and refuses the rest of the private space', async () => {
    const id = createSessionRow(t, 'allowed', 'expired')
    for (const proxyUrl of [
      `socks5://ops:${SECRET}@10.0.0.5`,
      'http://[fd12:3456::1]:3128',
      'http://squid.example.com:3128', // resolves to 10.20.0.5
      'http://SQUID.corp.example.:3128', // listed by name (it resolves to 192.168.7.7, not listed)
    ]) {
      const answer = await updateOn(t, id, { proxyUrl })
      expect(answer.status, proxyUrl).toBe(200)
      expect(answer.text).not.toContain(SECRET)
    }
    for (const host of ['192.168.7.7', '172.16.0.1', '[fd13::1]', '169.254.169.254', 'localhost', '127.0.0.1']) {
      const answer = await updateOn(t, id, { proxyUrl: `http://${host}:3128` })
      expect(answer.status, host).toBe(400)
    }
  })

  it('refuses the gateway host’s own addresses even when every network is listed', async () => {
    const id = createSessionRow(everywhere, 'own-host', 'expired')
    for (const host of [...ownAddresses.map(bracketed), 'self.example.com', '127.0.0.2', '0.0.0.0', '[::]']) {
      const answer = await updateOn(everywhere, id, { proxyUrl: `http://${host}:3128` })
      expect(answer.status, host).toBe(400)
    }
    // Anything else is the operator's to allow.
    expect((await updateOn(everywhere, id, { proxyUrl: 'http://192.168.7.7:3128' })).status).toBe(200)
  })
})
