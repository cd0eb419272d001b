import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBaileysEngine } from '../../../../src/engine/whatsapp/engine'
import type { LoopFairness } from '../../../../src/engine/whatsapp/socket/loop-fairness'
import { baileysEngineDeps } from '../../../../src/gateway'
import { pollUntil } from '../../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { queryFile } from '../../../support/sqlite-file'

const ACCOUNT = '15550013101'
const PN_CONTACT = '15551233101'
const LID_CONTACT = '15551233102'
const COUNT = 15

/** A loaded loop: each key-store write waits 40 ms for its turn, as a long backlog makes it wait. */
const busyLoop: LoopFairness = { breathe: () => sleep(40) }

/**
 * A contact's messages are recorded, and announced, in the order they were sent, even when each
 * key-store write waits for the loop: Baileys stored a new sender's LID mapping before taking its
 * message mutex, so a message that came after the mapping was stored (and had nothing to store)
 * took the mutex before the one still writing it (the Bun CI saw `backlog 0` recorded after
 * `backlog 1…3`). The patch takes the mutex first.
 */
describe('inbound order while key-store writes wait for the loop', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({
      engine: (deps) => createBaileysEngine({ ...baileysEngineDeps(deps), fairness: busyLoop }),
    })
    t.sim.addContact(PN_CONTACT)
    t.sim.addContact(LID_CONTACT)
    await t.pairByQr('order', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  /** The texts of `prefix`'s message.received events, in the outbox's sequence order. */
  const announced = (prefix: string) =>
    queryFile<{ text: string }>(
      t.databasePath,
      "SELECT json_extract(body, '$.data.content.text') AS text FROM webhook_events WHERE type = 'message.received' ORDER BY sequence",
    )
      .map((row) => row.text)
      .filter((text) => text.startsWith(prefix))

  it.each([
    ['by phone number', PN_CONTACT, false],
    ['by LID', LID_CONTACT, true],
  ])('a first-time contact writing %s', async (_, contact, fromLid) => {
    const prefix = `${contact} `
    const sent = Array.from({ length: COUNT }, (_, i) => `${prefix}${i}`)
    // 10 ms apart: later ones arrive while the first waits for its turn to store the sender's LID
    for (const text of sent) {
      await t.sim.contact(contact).send({ text }, { to: ACCOUNT, fromLid })
      await sleep(10)
    }
    const texts = await pollUntil(
      async () => announced(prefix),
      (texts) => texts.length === COUNT,
      { timeoutMs: 20_000, what: `${COUNT} texts from ${contact}` },
    )
    expect(texts).toEqual(sent)
  })
})
