import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mediaKey } from '../../../src/media/store'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'
import { fixture } from '../../wa-sim/fixtures'

const CONTACT = '15551235001'

/**
 * DELETE /v1/session/{id} through HTTP against the app, the real Baileys client against the
 * simulator, a real local webhook receiver; what is left is read from the SQLite file and the
 * media directory beside it, as an operator would.
 */
describe('DELETE /v1/session/{id}', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ plan: 'paid', config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    t.sim.addContact(CONTACT)
  })
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const del = async (id: string, key = t.key) => {
    const response = await t.request(`/v1/session/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const disconnect = async (id: string) =>
    expect((await t.request(`/v1/session/disconnect/${id}`, { method: 'DELETE' })).status).toBe(200)

  /** Rows naming the session in every table that has a session_id column, by table. */
  const rowsOf = (sessionId: string) => {
    const tables = queryFile<{ name: string }>(
      t.databasePath,
      "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'session_id'",
    ).map((row) => row.name)
    const counts: Record<string, number> = {}
    for (const table of tables) {
      const n = queryFile<{ n: number }>(
        t.databasePath,
        `SELECT count(*) AS n FROM ${table} WHERE session_id = ?`,
        sessionId,
      )[0]!.n
      if (n > 0) counts[table] = n
    }
    const session = queryFile(t.databasePath, 'SELECT id FROM sessions WHERE id = ?', sessionId).length
    return { ...counts, ...(session ? { sessions: session } : {}) }
  }

  it('removes a disconnected session with every row and its stored files, and answers the counts', async () => {
    const account = '15550035001'
    const linked = await t.linkSession({
      phone: account,
      connect: { sessionName: 'to-delete', webhookUrl: receiver.url('deleted') },
    })
    const id = linked.sessionId
    await t.sim.contact(CONTACT).send({ text: 'hello' }, { to: account })
    const photoId = await t.sim
      .contact(CONTACT)
      .send({ image: fixture('jpeg').bytes, mimetype: 'image/jpeg' }, { to: account })
    await receiver.waitFor('deleted', linked.webhookSecret, (events) =>
      events.some((e) => e.data.messageId === photoId),
    )
    const photo = await t.request(`/v1/message/${photoId}/media?sessionId=${id}`)
    expect(photo.status).toBe(200)
    await photo.arrayBuffer()
    const file = join(dirname(t.databasePath), 'media', mediaKey(id, photoId).slice(0, 2), mediaKey(id, photoId))
    expect(existsSync(file)).toBe(true)
    expect((await t.post(`/v1/session/${id}/webhooks`, { url: receiver.url('extra') })).status).toBe(200)
    const sent = await t.post(
      '/v1/message/text',
      { sessionId: id, phone: CONTACT, message: 'bye' },
      { headers: { 'idempotency-key': 'delete-test-1' } },
    )
    expect(sent.status).toBe(200)

    // Live: refused, nothing touched.
    const live = await del(id)
    expect(live.status).toBe(409)
    expect(live.body).toMatchObject({ error: 'session_state_conflict', details: { status: 'connected' } })
    expect(live.body.message).toContain(`DELETE /v1/session/disconnect/${id}`)
    expect(rowsOf(id)).toMatchObject({ sessions: 1, messages: 3, media_files: 1 })

    await disconnect(id)
    const deleted = await del(id)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({
      sessionId: id,
      sessionName: 'to-delete',
      removed: {
        messages: 3,
        media: 1,
        events: expect.any(Number),
        deliveries: expect.any(Number),
        webhooks: 1,
        chatwoot: 0,
        groups: expect.any(Number),
        contacts: expect.any(Number),
        authKeys: 0, // disconnect wiped the credentials already
        idempotencyKeys: 1,
      },
    })
    expect(deleted.body.removed.events).toBeGreaterThanOrEqual(5)
    expect(deleted.body.removed.deliveries).toBeGreaterThanOrEqual(deleted.body.removed.events)
    expect(rowsOf(id)).toEqual({})
    expect(queryFile(t.databasePath, "SELECT key FROM idempotency_keys WHERE key = 'delete-test-1'")).toEqual([])
    expect(existsSync(file)).toBe(false)

    expect((await t.listSessions()).map((s) => s.sessionId)).not.toContain(id)
    const again = await del(id)
    expect(again.status).toBe(404)
    // Its name is free: a connect makes a new session under a new id.
    const { status, body } = await t.connect({ sessionName: 'to-delete' })
    expect(status).toBe(200)
    expect(body.sessionId).not.toBe(id)
  })

  it('refuses a pending session (409), and answers 404 to other workspaces, unknown and over-long ids', async () => {
    const { body: pending } = await t.connect({ sessionName: 'still-pairing' })
    const refused = await del(pending.sessionId)
    expect(refused.status).toBe(409)
    expect(refused.body.details).toEqual({ status: 'pending' })

    await disconnect(pending.sessionId)
    const other = t.addWorkspace('other-team', 'paid')
    const stranger = await del(pending.sessionId, other.key)
    expect(stranger).toEqual({
      status: 404,
      body: { error: 'not_found', message: `Session "${pending.sessionId}" not found`, details: {} },
    })
    // Its name from the other workspace: plain 404 too; from ours, the hint.
    expect((await del('still-pairing', other.key)).body.details).toEqual({})
    expect((await del('still-pairing')).body.details).toEqual({
      sessionName: 'still-pairing',
      sessionId: pending.sessionId,
    })
    expect(rowsOf(pending.sessionId)).toMatchObject({ sessions: 1 })

    expect((await del('ses_doesnotexist0000000000')).status).toBe(404)
    const long = await del('x'.repeat(5_000))
    expect(long.status).toBe(400)
    expect(long.body.error).toBe('validation_error')
  })

  it('two DELETEs at once: one removes the session, the other is 404', async () => {
    const { body } = await t.connect({ sessionName: 'twice' })
    await disconnect(body.sessionId)
    const answers = await Promise.all([del(body.sessionId), del(body.sessionId), del(body.sessionId)])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404])
    expect(rowsOf(body.sessionId)).toEqual({})
  })

  it('a session still reconnecting in the background to unlink its device is stopped, and nothing comes back', async () => {
    const account = '15550035002'
    const linked = await t.linkSession({ phone: account, connect: { sessionName: 'unlinking' } })
    const id = linked.sessionId
    const phone = t.sim.account(account)
    phone.fault('unreachable')
    await t.waitForStatus(id, 'connecting')
    await disconnect(id) // offline: the credentials stay, the engine keeps trying to reach WhatsApp to unlink
    await sleep(200)
    expect(rowsOf(id)).toMatchObject({ wa_auth: expect.any(Number) })

    const deleted = await del(id)
    expect(deleted.status).toBe(200)
    expect(deleted.body.removed.authKeys).toBeGreaterThan(0)
    // WhatsApp reachable again: nothing writes keys, events or the row back (a write for the
    // session gone would also fail its foreign key, an unhandled error that fails this run).
    phone.clearFaults()
    await sleep(1_500) // many reconnect attempts at the test's 50–500 ms backoff
    expect(rowsOf(id)).toEqual({})
    expect((await t.listSessions()).map((s) => s.sessionId)).not.toContain(id)
  })
})
