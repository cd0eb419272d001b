import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../../src/logger'
import { fixtures } from '../../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../../support/media-server'
import {
  deadPort,
  startConnectProxy,
  startNonProxyService,
  startSocksProxy,
  type LoopbackProxy,
  type NonProxyService,
} from '../../support/proxies'
import { pollUntil } from '../../support/poll'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'
import type { HostResolver } from '../../../src/net/host-resolver'

const PASSWORD = 'pr0xy-s3cret'

/**
 * A proxy per session: its WhatsApp WebSocket and its media uploads go through the proxy it
 * names (an HTTP CONNECT proxy and a SOCKS5 proxy on loopback, both checking credentials), a
 * session without one goes straight out, and a proxy that is dead or refuses says so.
 */
describe('a session behind a proxy', () => {
  const logs: string[] = []
  let t: SimulatedGateway
  let http: LoopbackProxy
  let socks: LoopbackProxy
  let files: MediaServer
  let service: NonProxyService
  let wsTarget: string
  let mediaTarget: string

  beforeAll(async () => {
    http = await startConnectProxy({ user: 'alice', password: PASSWORD })
    socks = await startSocksProxy({ user: 'bob', password: PASSWORD })
    files = await startMediaServer()
    service = await startNonProxyService()
    files.serve('photo.png', await fixtures.png(), 'image/png')
    t = await startSimulatedGateway({
      plan: 'paid',
      simulator: { contacts: ['15551230001'] },
      // Loopback proxies and the loopback media server: the operator's switch for local tests.
      config: { allowPrivateAddresses: true, webhookAllowHttp: true, reconnect: { baseMs: 100, maxMs: 400 } },
      logger: createLogger('debug', { write: (text: string) => void logs.push(text) }),
    })
    wsTarget = new URL(t.sim.config.wsUrl).host
    mediaTarget = t.sim.config.mediaHost
  })
  afterAll(async () => {
    await t.close()
    await Promise.all([http.close(), socks.close(), files.close(), service.close()])
  })

  /** Pairs through the simulated phone and sends one image; answers the connect answer. */
  const pairAndSendImage = async (name: string, phone: string, proxyUrl?: string) => {
    const linked = await t.linkSession({ phone, connect: { sessionName: name, ...(proxyUrl ? { proxyUrl } : {}) } })
    await sendImage(linked.sessionId)
    return { body: linked.connected }
  }
  const sendImage = async (sessionId: string) => {
    const sent = await t.post('/v1/message/image', {
      sessionId,
      phone: '15551230001',
      imageUrl: files.url('photo.png'),
    })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    await t.sim.contact('15551230001').waitForMessage((m) => m.id === sent.body.messageId)
  }
  const session = async (id: string) => (await t.listSessions()).find((s) => s.sessionId === id)

  it('carries every connection of the session through an HTTP CONNECT proxy with credentials', async () => {
    const uploadsBefore = t.sim.mediaUploads().length
    const { body } = await pairAndSendImage(
      'via-http',
      '15550023001',
      `http://alice:${PASSWORD}@127.0.0.1:${http.port}`,
    )
    expect(body.proxyUrl).toBe(`http://alice:****@127.0.0.1:${http.port}`)
    const account = t.sim.account('15550023001')
    // Every handshake of the account (the pairing's and the login after the 515 restart) came through the proxy,
    expect(http.tunnelsTo(wsTarget)).toBeGreaterThanOrEqual(2)
    expect(http.tunnelsTo(wsTarget)).toBe(account.stats().connections + 1) // + the pairing's own socket
    // and so did the image's upload to the media host.
    expect(t.sim.mediaUploads().length - uploadsBefore).toBe(1)
    expect(http.tunnelsTo(mediaTarget)).toBe(1)
    expect(http.connections.every((c) => c.user === 'alice')).toBe(true)
    expect(await session(body.sessionId)).toMatchObject({ proxyUrl: `http://alice:****@127.0.0.1:${http.port}` })
  })

  it('carries them through a SOCKS5 proxy set by update and applied by a restart; an unproxied session uses neither', async () => {
    const before = { http: http.connections.length, socks: socks.connections.length }
    const { body } = await pairAndSendImage('direct-then-socks', '15550023002')
    // No proxy named and no PROXY_URL: nothing of this session reached either proxy.
    expect(http.connections.length).toBe(before.http)
    expect(socks.connections.length).toBe(before.socks)

    const proxyUrl = `socks5://bob:${PASSWORD}@127.0.0.1:${socks.port}`
    const update = await t.request(`/v1/session/update/${body.sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ proxyUrl }),
    })
    expect(update.status).toBe(200)
    expect(((await update.json()) as any).proxyUrl).toBe(`socks5://bob:****@127.0.0.1:${socks.port}`)
    expect(socks.connections.length).toBe(before.socks) // takes effect at the next connection
    const restart = await t.post(`/v1/session/${body.sessionId}/restart`, {})
    expect(restart.status).toBe(200)
    await t.waitForStatus(body.sessionId, 'connected')
    expect(socks.tunnelsTo(wsTarget)).toBe(1)
    await sendImage(body.sessionId)
    expect(socks.tunnelsTo(mediaTarget)).toBe(1)
    expect(socks.connections.every((c) => c.user === 'bob' && c.accepted)).toBe(true)
    expect(http.connections.length).toBe(before.http)
  })

  it('downloads a received file through the session’s proxy, HTTP CONNECT and SOCKS5 alike', async () => {
    for (const [proxy, proxyUrl, phone] of [
      [http, `http://alice:${PASSWORD}@127.0.0.1:${http.port}`, '15550023011'],
      [socks, `socks5://bob:${PASSWORD}@127.0.0.1:${socks.port}`, '15550023012'],
    ] as const) {
      const connect = await t.connect({ sessionName: `download-${phone}`, proxyUrl })
      expect(connect.status, JSON.stringify(connect.body)).toBe(200)
      t.sim.scan(connect.body.qrCode, phone)
      const sessionId = connect.body.sessionId
      await t.waitForStatus(sessionId, 'connected')
      const bytes = Buffer.from(`a file for ${phone}`)
      const id = await t.sim.contact('15551230001').send({ document: bytes, fileName: 'f.txt' }, { to: phone })
      await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
      const tunnels = proxy.tunnelsTo(mediaTarget)
      const download = await t.request(`/v1/message/${id}/media?sessionId=${sessionId}`)
      expect(download.status).toBe(200)
      expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes)
      // The file came from the media host through the proxy, not straight from the gateway
      expect(proxy.tunnelsTo(mediaTarget)).toBe(tunnels + 1)
    }
  })

  it('says proxy_unreachable when the proxy turns the credentials down, and retries at the capped backoff', async () => {
    const { connected: body } = await t.linkSession({ phone: '15550023003', connect: { sessionName: 'bad-password' } })
    const update = await t.request(`/v1/session/update/${body.sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ proxyUrl: `http://alice:wrong@127.0.0.1:${http.port}` }),
    })
    expect(update.status).toBe(200)
    const refusedBefore = http.connections.filter((c) => !c.accepted).length
    await t.post(`/v1/session/${body.sessionId}/restart`, {})
    await pollUntil(
      async () => (await session(body.sessionId))?.statusReason,
      (reason) => reason === 'proxy_unreachable',
      { timeoutMs: 5_000, what: 'proxy_unreachable' },
    )

    expect((await session(body.sessionId))?.status).toBe('connecting')
    const start = http.connections.filter((c) => !c.accepted).length
    await sleep(1_500)
    const tries = http.connections.filter((c) => !c.accepted).length - start
    expect(tries).toBeGreaterThanOrEqual(2) // it keeps trying...
    expect(tries).toBeLessThanOrEqual(10) // ...at 200–400 ms, not in a tight loop
    expect(http.connections.filter((c) => !c.accepted).length).toBeGreaterThan(refusedBefore)

    // Removing the proxy (null) lets the next connection go straight out.
    const cleared = await t.request(`/v1/session/update/${body.sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ proxyUrl: null }),
    })
    expect(((await cleared.json()) as any).proxyUrl).toBeNull()
    await t.waitForStatus(body.sessionId, 'connected')
    expect((await session(body.sessionId))?.statusReason).toBeNull()
  })

  it('says proxy_unreachable for a closed port and for a service that is no proxy alike, the detail only in the log', async () => {
    // What listens at a proxy's address must not show through the session's status: one PUT
    // and restart per probe would otherwise map a network's open ports.
    const closed = await deadPort()
    const answered: unknown[] = []
    for (const [name, port] of [
      ['closed', closed],
      ['not-a-proxy', service.port],
    ] as const)
      for (const scheme of ['socks5', 'http']) {
        const response = await t.connect({
          sessionName: `${name}-${scheme}`,
          proxyUrl: `${scheme}://bob:${PASSWORD}@127.0.0.1:${port}`,
        })
        expect(response.status, `${name} ${scheme}`).toBe(502)
        answered.push(response.body)
        const expired = (await t.listSessions()).find((s) => s.sessionName === `${name}-${scheme}`)
        expect(expired, `${name} ${scheme}`).toMatchObject({ status: 'expired', statusReason: 'proxy_unreachable' })
      }
    expect(service.connections()).toBeGreaterThanOrEqual(2) // the service was really reached
    for (const body of answered)
      expect(body).toMatchObject({ error: 'upstream_error', details: { statusReason: 'proxy_unreachable' } })
    // Same answers whatever listened there, once the names differ no more.
    expect(new Set(answered.map((body) => JSON.stringify(body)))).toHaveProperty('size', 1)
    // The operator sees what happened.
    const warnings = logs.filter((line) => line.includes('proxy') && line.includes('"level":40'))
    expect(warnings.some((line) => line.includes('ECONNREFUSED'))).toBe(true)
  })

  it('never shows the password: not in answers, events, rows other than the session’s own, or logs', async () => {
    const answers = JSON.stringify(await t.listSessions())
    expect(answers).not.toContain(PASSWORD)
    const events = queryFile<{ body: string }>(t.databasePath, 'SELECT body FROM webhook_events')
    expect(events.length).toBeGreaterThan(0)
    expect(events.some((e) => e.body.includes(PASSWORD))).toBe(false)
    expect(logs.length).toBeGreaterThan(100)
    expect(logs.filter((line) => line.includes(PASSWORD))).toEqual([])
    expect(t.sim.violations()).toEqual([])
  })
})

describe('the operator’s PROXY_URL', () => {
  let t: SimulatedGateway
  let socks: LoopbackProxy
  let own: LoopbackProxy
  beforeAll(async () => {
    socks = await startSocksProxy()
    own = await startConnectProxy()
    t = await startSimulatedGateway({ config: { allowPrivateAddresses: true, proxyUrl: socks.url } })
  })
  afterAll(async () => {
    await t.close()
    await Promise.all([socks.close(), own.close()])
  })

  it('carries sessions that name no proxy; one that names its own uses only that', async () => {
    const ws = new URL(t.sim.config.wsUrl).host
    const byDefault = await t.pairByQr('default-proxy', '15550023101')
    expect((await t.listSessions()).find((s) => s.sessionId === byDefault)?.proxyUrl).toBeNull()
    const viaDefault = socks.tunnelsTo(ws)
    expect(viaDefault).toBeGreaterThanOrEqual(2)
    await t.linkSession({ phone: '15550023102', connect: { sessionName: 'own-proxy', proxyUrl: own.url } })
    expect(own.tunnelsTo(ws)).toBeGreaterThanOrEqual(2)
    expect(socks.tunnelsTo(ws)).toBe(viaDefault)
  })
})

/**
 * PROXY_ALLOWED_NETWORKS instead of ALLOW_PRIVATE_ADDRESSES: a loopback proxy is usable because
 * the operator listed its address (or its name) exactly; the rest of loopback stays closed.
 */
describe('a proxy the operator’s allowed networks let through', () => {
  let t: SimulatedGateway
  let http: LoopbackProxy
  let socks: LoopbackProxy
  /**
   * Names the test uses: the listed one answers loopback, and the connection goes to that
   * address; `moved.proxies.example` does not resolve when it is set, then answers unlisted loopback.
   */
  let moved = 0
  const resolver: HostResolver = async (host) => {
    if (host === 'socks.proxies.example') return [{ address: '127.0.0.1', family: 4 }]
    if (host === 'moved.proxies.example' && moved++ > 0) return [{ address: '127.0.0.2', family: 4 }]
    throw new Error('ENOTFOUND')
  }
  beforeAll(async () => {
    http = await startConnectProxy()
    socks = await startSocksProxy()
    t = await startSimulatedGateway({
      resolver,
      config: { proxyAllowedNetworks: ['127.0.0.1', 'socks.proxies.example'] },
    })
  })
  afterAll(async () => {
    await t.close()
    await Promise.all([http.close(), socks.close()])
  })

  it('pairs through a loopback proxy listed by address, and through one listed by name, pinned to its answer', async () => {
    const ws = new URL(t.sim.config.wsUrl).host
    await t.linkSession({ phone: '15550023201', connect: { sessionName: 'listed-address', proxyUrl: http.url } })
    expect(http.tunnelsTo(ws)).toBeGreaterThanOrEqual(2)

    await t.linkSession({
      phone: '15550023202',
      connect: { sessionName: 'listed-name', proxyUrl: `socks5://socks.proxies.example:${socks.port}` },
    })
    expect(socks.tunnelsTo(ws)).toBeGreaterThanOrEqual(2)
  })

  it('still refuses loopback addresses the list does not name', async () => {
    const before = http.connections.length
    for (const host of [`127.0.0.2:${http.port}`, `[::1]:${http.port}`, `localhost:${http.port}`]) {
      const response = await t.connect({
        sessionName: `unlisted-${host.replace(/\W/g, '')}`,
        proxyUrl: `http://${host}`,
      })
      expect(response.status, host).toBe(400)
    }
    expect(http.connections.length).toBe(before)
  })

  it('checks the name again before connecting: one that now resolves to an unlisted address is proxy_forbidden, never contacted', async () => {
    const before = http.connections.length
    const response = await t.connect({ sessionName: 'moved', proxyUrl: `http://moved.proxies.example:${http.port}` })
    expect(response.status).toBe(502)
    expect(response.body).toMatchObject({ details: { statusReason: 'proxy_forbidden' } })
    expect(moved).toBe(2) // accepted when set (no answer yet), refused on its answer at the connection
    expect(http.connections.length).toBe(before)
  })
})
