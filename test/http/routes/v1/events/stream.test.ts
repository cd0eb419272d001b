import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve } from '../../../../../src/runtime/serve'
import { readEventStream, type OpenStream } from '../../../../support/event-stream'
import { queryFile } from '../../../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../../../support/simulated-gateway'

describe('GET /v1/events', () => {
  let t: SimulatedGateway
  const open: OpenStream[] = []
  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid', simulator: { contacts: ['15551230001'] } })
  })
  afterAll(async () => {
    for (const stream of open) stream.close()
    await t.close()
  })

  const stream = async (query = '', headers: Record<string, string> = {}, key = t.key) => {
    const abort = new AbortController()
    const response = await t.request(`/v1/events${query}`, {
      headers: { authorization: `Bearer ${key}`, ...headers },
      signal: abort.signal,
    })
    const opened = readEventStream(response, abort)
    open.push(opened)
    return opened
  }
  const outboxBody = (eventId: string) =>
    queryFile<{ body: string }>(t.databasePath, 'SELECT body FROM webhook_events WHERE id = ?', eventId)[0]?.body

  it('streams the workspace’s events as they happen, each exactly as webhooks carry it', async () => {
    const events = await stream()
    expect(events.status).toBe(200)
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const id = await t.pairByQr('live', '15550008001')
    const seen = await events.until((list) =>
      list.some((e) => e.event === 'session.status' && JSON.parse(e.data).data.status === 'connected'),
    )
    expect(seen.map((e) => e.event)).toEqual(expect.arrayContaining(['session.status', 'session.qr']))
    for (const event of seen) {
      const body = JSON.parse(event.data) as { eventId: string; type: string; sessionId: string }
      expect(body).toMatchObject({ eventId: event.id, type: event.event, sessionId: id })
      expect(event.data).toBe(outboxBody(event.id!)) // the very bytes a webhook delivery sends
    }
    const sequences = seen.map((e) => JSON.parse(e.data).sequence as number)
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b))
  })

  it('keeps to one session with ?sessionId= and resumes after Last-Event-ID', async () => {
    const a = await t.pairByQr('a', '15550008002')
    const onlyA = await stream(`?sessionId=${a}`)
    const b = await t.pairByQr('b', '15550008003')
    await t.post('/v1/message/text', { sessionId: a, phone: '15551230001', message: 'one' })
    await t.post('/v1/message/text', { sessionId: a, phone: '15551230001', message: 'two' })
    const got = await onlyA.until((list) => list.filter((e) => e.event === 'message.status').length >= 2)
    expect(got.every((e) => JSON.parse(e.data).sessionId === a)).toBe(true)
    expect(queryFile(t.databasePath, 'SELECT 1 FROM webhook_events WHERE session_id = ?', b).length).toBeGreaterThan(0)
    onlyA.close()

    const [first, second] = got
    const resumed = await stream(`?sessionId=${a}`, { 'last-event-id': first!.id! })
    const again = await resumed.until((list) => list.length >= got.length - 1)
    expect(again[0]).toMatchObject({ id: second!.id, event: second!.event, data: second!.data })
  })

  it('refuses other workspaces’ sessions and shows a workspace none of another’s events', async () => {
    const other = t.addWorkspace('other-team')
    const id = await t.pairByQr('private', '15550008004')
    const stranger = await t.request(`/v1/events?sessionId=${id}`, {
      headers: { authorization: `Bearer ${other.key}` },
    })
    expect(stranger.status).toBe(404)
    expect(await stranger.json()).toMatchObject({ error: 'not_found' })

    const theirs = await stream('', {}, other.key)
    const mine = await stream()
    await t.post('/v1/message/text', { sessionId: id, phone: '15551230001', message: 'private' })
    await mine.until((list) => list.some((e) => e.event === 'message.status'))
    expect(theirs.events).toEqual([])
  })

  it('answers 400 to a Last-Event-ID that is no event id', async () => {
    const response = await t.request('/v1/events', { headers: { 'last-event-id': 'evt_1 event: forged' } })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: 'validation_error' })
  })

  it('holds at most 10 streams per workspace: the next is 429 until one closes', async () => {
    const capped = t.addWorkspace('capped')
    const streams = await Promise.all(Array.from({ length: 10 }, () => stream('', {}, capped.key)))
    expect(streams.map((s) => s.status)).toEqual(Array(10).fill(200))
    const refused = await t.request('/v1/events', { headers: { authorization: `Bearer ${capped.key}` } })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', details: { limit: 10 } })
    streams[0]!.close()
    await streams[0]!.ended
    await expect.poll(async () => (await stream('', {}, capped.key)).status, { timeout: 5_000 }).toBe(200)
  })
})

describe('event streams and shutdown', () => {
  it('end when the gateway ends them, so the HTTP server can close', async () => {
    const t = await startSimulatedGateway({ simulator: { contacts: ['15551230001'] } })
    const server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
    const abort = new AbortController()
    const response = await fetch(`http://127.0.0.1:${server.port}/v1/events`, {
      headers: { authorization: `Bearer ${t.key}` },
      signal: abort.signal,
    })
    const events = readEventStream(response, abort)
    expect(events.status).toBe(200)
    const closed = server.close()
    t.gateway.endStreams()
    await events.ended
    await closed
    await t.close()
  })
})
