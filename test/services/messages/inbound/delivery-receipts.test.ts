import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createBaileysEngine } from '../../../../src/engine/whatsapp/engine'
import { baileysEngineDeps } from '../../../../src/gateway'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'

const ACCOUNT = '15550013201'
const CONTACT = '15551233201'
const CALM = '15551233202'
const QUEUED = 40
const YIELDING_ACCOUNT = '15550013202'
const BURST = 30

/**
 * Delivery receipts are WhatsApp's acknowledgement: every message gets one, once stored. A backlog
 * (the offline queue a login brings) is acknowledged in a few stanzas with a <list> of ids rather
 * than a socket write per message; a single message still gets its own at once.
 */
describe('delivery receipts', () => {
  const dir = tempDir()
  const databasePath = `${dir.path}/gateway.db`
  let first: SimulatedGateway
  let second: SimulatedGateway
  beforeAll(async () => {
    first = await startSimulatedGateway({ databasePath })
    first.sim.addContact(CONTACT)
    first.sim.addContact(CALM)
    await first.pairByQr('receipts', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await second?.stopGateway()
    await first.close()
    dir.cleanup()
  })

  const inboundIds = () =>
    queryFile<{ id: string }>(databasePath, "SELECT id FROM messages WHERE direction = 'inbound'").map((row) => row.id)

  it('acknowledges a calm message by itself, once it is stored', async () => {
    const id = await first.sim.contact(CALM).send({ text: 'one' }, { to: ACCOUNT })
    const receipt = await first.sim.account(ACCOUNT).waitForReceipt((r) => r.ids.includes(id))
    expect(receipt).toMatchObject({ ids: [id], to: `${first.sim.contact(CALM).phone}@s.whatsapp.net` })
    expect(inboundIds()).toContain(id)
  })

  it('acknowledges a queued backlog with lists of ids, every message once, to its own chat', async () => {
    const account = first.sim.account(ACCOUNT)
    await first.stopGateway()
    await vi.waitFor(() => expect(account.online).toBe(false))
    const sent: string[] = []
    for (let i = 0; i < QUEUED; i++)
      sent.push(await first.sim.contact(CONTACT).send({ text: `queued ${i}` }, { to: ACCOUNT }))
    expect(account.unacknowledged()).toEqual(expect.arrayContaining(sent))
    const before = account.receipts().length

    second = await startSimulatedGateway({ databasePath, reuse: { sim: first.sim, control: first.control } })
    await vi.waitFor(() => expect(account.unacknowledged().filter((id) => sent.includes(id))).toEqual([]), {
      timeout: 30_000,
    })
    expect(inboundIds()).toEqual(expect.arrayContaining(sent))

    const receipts = account
      .receipts()
      .slice(before)
      .filter((r) => r.ids.some((id) => sent.includes(id)))
    expect(receipts.every((r) => r.to === `${CONTACT}@s.whatsapp.net` && r.ids.every((id) => sent.includes(id)))).toBe(
      true,
    )
    expect(receipts.flatMap((r) => r.ids).sort()).toEqual([...sent].sort())
    // Lists, not a receipt a message: how many messages a turn of the loop handles depends on the
    // machine's load (a loaded CI run under Bun sent 13 lists for 40), so the bound leaves room.
    expect(receipts.length).toBeLessThan(QUEUED / 2)
  }, 60_000)
})

/**
 * The write-ahead rule (perf/group-commit.ts): a receipt leaves only once the message it names is
 * committed, so a crash in between leaves it queued on the server. Here the loop yields to its
 * check phase after every message's key write, as a long backlog makes it: the next message is
 * then recorded in a check phase, its group commits only at the next one, and the receipts'
 * timer fires before that. Only the commit before each frame keeps them in order.
 */
describe('receipts after the commit', () => {
  const dir = tempDir()
  const databasePath = `${dir.path}/gateway.db`
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({
      databasePath,
      engine: (deps) =>
        createBaileysEngine({
          ...baileysEngineDeps(deps),
          fairness: { breathe: () => new Promise<void>((resolve) => setImmediate(resolve)) },
        }),
    })
    t.sim.addContact(CONTACT)
    await t.pairByQr('write-ahead', YIELDING_ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    dir.cleanup()
  })

  it('acknowledges no message that is not in the file yet', async () => {
    const account = t.sim.account(YIELDING_ACCOUNT)
    const acknowledged = new Set<string>()
    const early: string[] = []
    const sent: string[] = []
    // Read as each receipt arrives, by another connection: what the gateway would find after a crash.
    const allAcknowledged = account.waitForReceipt((receipt) => {
      const stored = new Set(
        queryFile<{ id: string }>(databasePath, "SELECT id FROM messages WHERE direction = 'inbound'").map((r) => r.id),
      )
      for (const id of receipt.ids) {
        acknowledged.add(id)
        if (!stored.has(id)) early.push(id)
      }
      return sent.length === BURST && sent.every((id) => acknowledged.has(id))
    }, 30_000)
    const sends = Array.from({ length: BURST }, (_, i) =>
      t.sim.contact(CONTACT).send({ text: `burst ${i}` }, { to: YIELDING_ACCOUNT }),
    )
    sent.push(...(await Promise.all(sends)))
    await allAcknowledged
    // (The phone's own protocol messages are acknowledged too, and never stored.)
    expect(early.filter((id) => sent.includes(id))).toEqual([])
  }, 60_000)
})
