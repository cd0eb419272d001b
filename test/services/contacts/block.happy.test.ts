import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550042001'
const PEST = '15551420001'
const FRIEND = '15551420002'
const NOBODY = '15551429999'

/**
 * Blocking end to end: the block goes to the simulator's block list as Baileys' updateBlockStatus
 * shapes it, and the simulator, like WhatsApp, then relays nothing from the blocked contact: no
 * record, no event. Unblocking lets new messages through again.
 */
describe('blocking a contact', () => {
  let t: SimulatedGateway
  let sessionId: string

  const block = (phone: string, action: 'block' | 'unblock' = 'block') =>
    t.post(`/v1/contact/${encodeURIComponent(phone)}/${action}`, { sessionId })
  const blocked = () => t.get(`/v1/contact/blocked?sessionId=${sessionId}`)
  const records = (phone: string) =>
    queryFile<{ id: string }>(
      t.databasePath,
      "SELECT id FROM messages WHERE session_id = ? AND phone = ? AND direction = 'inbound'",
      sessionId,
      phone,
    ).map((row) => row.id)

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(PEST)
    t.sim.addContact(FRIEND)
    sessionId = await t.pairByQr('main', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  it('blocks: listed in blocked, and the contact’s messages no longer arrive', async () => {
    const before = await t.sim.contact(PEST).send({ text: 'before' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, before, (record) => record?.status === 'received')

    const { status, body } = await block(`+1 (555) 142-0001`)
    expect(status, JSON.stringify(body)).toBe(200)
    const pest = { phone: PEST, lid: `${t.sim.contact(PEST).lid}@lid` }
    expect(body).toEqual({ ...pest, blocked: true })
    expect(t.sim.account(ACCOUNT).blocked()).toEqual([{ phone: PEST, lid: t.sim.contact(PEST).lid }])
    expect(await blocked()).toEqual({ status: 200, body: { blocked: [pest] } })

    const lost = await t.sim.contact(PEST).send({ text: 'while blocked' }, { to: ACCOUNT })
    // A message from someone else, sent after it, arrives: the blocked one would have come first
    const other = await t.sim.contact(FRIEND).send({ text: 'meanwhile' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, other, (record) => record?.status === 'received')
    expect(records(PEST)).toEqual([before])
    expect((await t.get(`/v1/message/${lost}?sessionId=${sessionId}`)).status).toBe(404)
  })

  it('is idempotent: blocking again answers the same, and the list holds them once', async () => {
    const again = await block(PEST)
    expect(again).toMatchObject({ status: 200, body: { phone: PEST, blocked: true } })
    expect((await blocked()).body.blocked).toHaveLength(1)
  })

  it('unblocks: off the list, and new messages arrive again', async () => {
    const { status, body } = await block(`${t.sim.contact(PEST).lid}@lid`, 'unblock')
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({ phone: PEST, lid: `${t.sim.contact(PEST).lid}@lid`, blocked: false })
    expect(await blocked()).toEqual({ status: 200, body: { blocked: [] } })
    const back = await t.sim.contact(PEST).send({ text: 'after' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, back, (record) => record?.status === 'received')
    expect(records(PEST)).toHaveLength(2)
    expect((await block(PEST, 'unblock')).body).toMatchObject({ blocked: false })
  })

  it('blocks by LID when the session knows the number behind it', async () => {
    const lid = `${t.sim.contact(FRIEND).lid}@lid`
    expect((await block(lid)).body).toEqual({ phone: FRIEND, lid, blocked: true })
    expect((await blocked()).body.blocked).toEqual([{ phone: FRIEND, lid }])
    expect((await block(FRIEND, 'unblock')).status).toBe(200)
  })

  it('is 404 for a number without WhatsApp and for a LID the session cannot put a number to, sending nothing', async () => {
    const before = t.sim.stats()[ACCOUNT]!
    const nobody = await block(NOBODY)
    expect(nobody).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: `${NOBODY} has no WhatsApp account` },
    })
    const unknownLid = await block('123456789012345@lid')
    expect(unknownLid).toMatchObject({ status: 404, body: { error: 'not_found' } })
    expect(unknownLid.body.message).toMatch(/does not know the number behind 123456789012345@lid/)
    // Number lookups for NOBODY (usync), nothing for the LID: no block was asked
    const after = t.sim.stats()[ACCOUNT]!
    expect(after.iqs - before.iqs).toBeGreaterThan(0)
    expect(after.iqs - before.iqs).toBe(after.usyncQueries - before.usyncQueries)
    expect(t.sim.account(ACCOUNT).blocked()).toEqual([])
    expect(t.sim.violations()).toEqual([])
  })
})
