import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resolveConfig, type WebhookConfig } from '../../src/config'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { sessions, webhookDeliveries } from '../../src/db/schema'
import { newSessionId } from '../../src/ids'
import { silentLogger } from '../../src/logger'
import { createWorkspace } from '../../src/services/workspaces'
import { createWebhookDispatcher, type WebhookDispatcher } from '../../src/webhooks/dispatcher'
import { createStatementCache } from '../../src/perf/prepared'
import { createOutbox } from '../../src/webhooks/outbox'
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../src/webhooks/sender'
import { tempDir } from '../support/temp-dir'
import { groupWrite } from '../../src/perf/group-commit'
import { countCommits } from '../support/commits'
import { queryFile } from '../support/sqlite-file'

/** A sender whose POSTs stay open until the test answers them, so what is in flight can be seen. */
class FakeSender implements WebhookSender {
  readonly posts: { request: WebhookRequest; answer: (response: WebhookResponse) => void }[] = []
  post(request: WebhookRequest, signal: AbortSignal): Promise<WebhookResponse> {
    return new Promise((resolve) => {
      this.posts.push({ request, answer: resolve })
      // As the real sender: a stop aborts what is under way.
      signal.addEventListener('abort', () => resolve({ delivered: false, statusCode: null, error: 'aborted' }), {
        once: true,
      })
    })
  }
  close(): void {}
  /** The POSTs not answered yet: [url, sequence]. */
  open(): [string, number][] {
    return this.pending.map((p) => [p.request.url, JSON.parse(p.request.body).sequence])
  }
  get pending() {
    return this.posts.filter((p) => !this.answered.has(p))
  }
  readonly answered = new Set<(typeof this.posts)[number]>()
  answer(index: number, response: WebhookResponse = { delivered: true, statusCode: 200 }): void {
    const post = this.pending[index]!
    this.answered.add(post)
    post.answer(response)
  }
}

describe('the webhook dispatcher’s pump', () => {
  const dir = tempDir()
  let db: GatewayDatabase
  let sender: FakeSender
  let dispatcher: WebhookDispatcher
  let time: number
  const clock = { now: () => new Date(time) }
  let webhooks: WebhookConfig

  const addSession = (webhookUrl: string, webhookSecret = `whsec_${randomBytes(24).toString('base64')}`) => {
    const workspace = createWorkspace(
      { db, clock, logger: silentLogger(), config: resolveConfig() },
      { name: `w${randomBytes(3).toString('hex')}`, plan: 'paid' },
    )
    const id = newSessionId()
    const now = clock.now()
    db.insert(sessions)
      .values({
        id,
        workspaceId: workspace.id,
        name: 's',
        status: 'connected',
        webhookUrl,
        webhookMessages: true,
        webhookSecret,
        createdAt: now,
        updatedAt: now,
      })
      .run()
    return id
  }
  // The test wakes the dispatcher itself, after each event.
  const noWake = { wake: () => {} }
  const event = (sessionId: string) => {
    createOutbox({ db, clock, config: { webhooks }, notifier: noWake, statements: createStatementCache(db) }).record(
      db,
      {
        sessionId,
        type: 'session.qr',
        data: { qr: 'x' },
      },
    )
    dispatcher.wake(sessionId)
  }
  const start = (overrides: Partial<WebhookConfig> = {}) => {
    webhooks = { ...resolveConfig().webhooks, retryBaseMs: 1_000, retryMaxMs: 8_000, ...overrides }
    dispatcher = createWebhookDispatcher({ db, clock, logger: silentLogger(), config: { webhooks }, sender })
    dispatcher.start()
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve))
  const statuses = () =>
    db
      .select({ status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .all()
      .map((d) => d.status)

  let path: string
  beforeEach(async () => {
    path = join(dir.path, `${randomBytes(4).toString('hex')}.db`)
    db = await openDatabase(path)
    migrate(db)
    sender = new FakeSender()
    time = Date.parse('2026-11-24T00:00:00.000Z')
  })
  afterEach(async () => {
    await dispatcher.stop()
    closeDatabase(db)
  })

  it('posts one delivery per session at a time, in order, and sessions side by side', async () => {
    start()
    const a = addSession('https://a.invalid/hook')
    const b = addSession('https://b.invalid/hook')
    for (const id of [a, a, a, b]) event(id)
    await vi.waitFor(() =>
      expect(sender.open()).toEqual([
        ['https://a.invalid/hook', 1],
        ['https://b.invalid/hook', 1],
      ]),
    )
    sender.answer(0)
    await vi.waitFor(() =>
      expect(sender.open()).toEqual([
        ['https://b.invalid/hook', 1],
        ['https://a.invalid/hook', 2],
      ]),
    )
    sender.answer(1)
    await vi.waitFor(() =>
      expect(sender.open()).toEqual([
        ['https://b.invalid/hook', 1],
        ['https://a.invalid/hook', 3],
      ]),
    )
  })

  it('posts only what is committed: an event written into an open group commits before the pump reads it', async () => {
    // perf/group-commit.ts: a received message's event waits in the turn's group; a pump already
    // queued for the check phase runs before the group's own commit would.
    start()
    const id = addSession('https://committed.invalid/hook')
    await settle()
    const committedAtPost: number[] = []
    const post = sender.post.bind(sender)
    sender.post = (request, signal) => {
      committedAtPost.push(queryFile<{ n: number }>(path, 'SELECT count(*) AS n FROM webhook_events')[0]!.n)
      return post(request, signal)
    }
    dispatcher.wake(id)
    groupWrite(db, () =>
      createOutbox({ db, clock, config: { webhooks }, notifier: noWake, statements: createStatementCache(db) }).record(
        db,
        { sessionId: id, type: 'session.qr', data: { qr: 'x' } },
      ),
    )
    await vi.waitFor(() => expect(sender.open()).toHaveLength(1))
    expect(committedAtPost).toEqual([1])
  })

  it('marks the deliveries answered in one turn delivered in that turn’s commit, and those answered before a stop', async () => {
    // Each mark alone was a commit; now each goes into the connection's group and is committed
    // with what else that turn wrote.
    const commits = countCommits(db)
    start()
    const ids = Array.from({ length: 6 }, (_, i) => addSession(`https://s${i}.invalid/hook`))
    for (const id of ids) event(id)
    await vi.waitFor(() => expect(sender.open()).toHaveLength(6))
    commits.count = 0
    for (const _ of ids) sender.answer(0)
    groupWrite(db, () => addSession('https://later.invalid/hook')) // another write in the same turn
    await vi.waitFor(() => expect(statuses()).toEqual(ids.map(() => 'delivered')))
    expect(commits.count).toBe(1)
    expect(
      queryFile<{ n: number }>(path, "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'")[0]!.n,
    ).toBe(6)

    // Answered, then the gateway stops before the next pump: the answer is not lost.
    event(ids[0]!)
    await vi.waitFor(() => expect(sender.open()).toHaveLength(1))
    sender.answer(0)
    for (let tick = 0; tick < 5; tick++) await Promise.resolve() // its outcome noted, no pump yet
    await dispatcher.stop()
    expect(statuses()).toEqual([...ids, ids[0]].map(() => 'delivered'))
  })

  it('fails a delivery whose stored secret cannot sign, and goes on with the other sessions', async () => {
    start()
    const broken = addSession('https://broken.invalid/hook', 'whsec_not base64!')
    const fine = addSession('https://fine.invalid/hook')
    event(broken)
    event(fine)
    await vi.waitFor(() => expect(sender.open()).toEqual([['https://fine.invalid/hook', 1]]))
    await vi.waitFor(() =>
      expect(db.select().from(webhookDeliveries).where(eq(webhookDeliveries.sessionId, broken)).get()).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastError: 'the webhook secret cannot sign',
      }),
    )
  })

  it('holds an endpoint to its concurrency, whatever the number of sessions posting there', async () => {
    start({ endpointConcurrency: 2 })
    const shared = Array.from({ length: 5 }, () => addSession('https://shared.invalid/hook'))
    for (const id of shared) event(id)
    await vi.waitFor(() => expect(sender.open()).toHaveLength(2))
    await settle()
    expect(sender.open()).toHaveLength(2)
    sender.answer(0)
    await vi.waitFor(() => expect(sender.posts).toHaveLength(3))
    expect(sender.open()).toHaveLength(2)
  })

  it('retries a failure after the backoff on its clock, then fails it for good when the window ends', async () => {
    start({ retryHours: 30 / 3600 }) // a 30 s retry window
    const a = addSession('https://a.invalid/hook')
    event(a)
    await vi.waitFor(() => expect(sender.open()).toHaveLength(1))
    sender.answer(0, { delivered: false, statusCode: 503, error: 'HTTP 503' })
    await settle()
    dispatcher.wake() // nothing is due yet: no new POST
    await settle()
    expect(sender.posts).toHaveLength(1)

    time += 1_000 // the first retry is due after at most 1 s (base 1 s, jitter in the upper half)
    dispatcher.wake(a)
    await vi.waitFor(() => expect(sender.posts).toHaveLength(2))
    time += 31_000 // past the window: this attempt's failure is the last
    sender.answer(0, { delivered: false, statusCode: null, error: 'ECONNREFUSED' })
    await vi.waitFor(() => expect(statuses()).toEqual(['failed']))
    event(a) // and the session's next event goes out
    await vi.waitFor(() => expect(sender.open()).toEqual([['https://a.invalid/hook', 2]]))
  })
})
