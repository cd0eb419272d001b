import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WhatsAppSimulator } from '../simulator'
import { capturingLogger, HistoryRig, received } from './history-harness'

describe('hand-made history files and receipt checks (real Baileys)', () => {
  let rig: HistoryRig
  let sim: WhatsAppSimulator
  beforeAll(async () => {
    rig = await HistoryRig.start()
    sim = rig.sim
  })
  afterAll(async () => {
    await rig.stop()
  })

  it('a history bomb reaches the client, which refuses it at 64 MiB; a corrupt chunk is refused too; the simulator stays small', async () => {
    const phone = '15557100005'
    const got = received()
    const { logger, lines } = capturingLogger()
    await rig.link(phone, { ...rig.historyConfig(0), logger }, got)
    const account = sim.account(phone)
    const peakBefore = process.resourceUsage().maxRSS
    const bomb = await account.sendHistoryBlob({ syncType: 'RECENT', inflatedBytes: 100 * 1024 * 1024 })
    const file = sim.mediaUploads().at(-1)!
    expect(file.size).toBeLessThan(1024 * 1024)
    // made streaming: the process's peak resident size (KiB) did not grow by the 100 MB
    expect((process.resourceUsage().maxRSS - peakBefore) * 1024).toBeLessThan(50 * 1024 * 1024)
    await expect
      .poll(() => account.historySent().find((record) => record.id === bomb)?.nack, { timeout: 20_000 })
      .toBe('500')
    expect(lines.join('\n')).toContain('history blob inflates past 67108864 bytes')

    const corrupt = await account.sendHistoryBlob({ syncType: 'FULL', raw: Buffer.from('no zlib stream here') })
    await expect
      .poll(() => account.historySent().find((record) => record.id === corrupt)?.nack, { timeout: 10_000 })
      .toBe('500')
    expect(account.historySent().every((record) => !record.acknowledged)).toBe(true)
    expect(got.messages.size).toBe(0)
    expect(sim.violations()).toEqual([])
  })

  it('a gigabyte bomb is made streaming: about a megabyte stored, no gigabyte in memory', async () => {
    const phone = '15557100006'
    await rig.link(phone, { ...rig.historyConfig(0), logger: capturingLogger().logger }, received())
    const account = sim.account(phone)
    // the process's peak resident size (KiB) only rises: a gigabyte made in memory would show
    const peakBefore = process.resourceUsage().maxRSS
    const id = await account.sendHistoryBlob({ syncType: 'FULL', inflatedBytes: 1024 ** 3, progress: 7, chunkOrder: 3 })
    expect((process.resourceUsage().maxRSS - peakBefore) * 1024).toBeLessThan(300 * 1024 * 1024)
    expect(sim.mediaUploads().at(-1)!.size).toBeLessThan(2 * 1024 * 1024)
    expect(account.historySent().find((record) => record.id === id)).toMatchObject({
      syncType: 'FULL',
      progress: 7,
      chunkOrder: 3,
    })
    // the device got it and refused it (past 64 MiB)
    await expect
      .poll(() => account.historySent().find((record) => record.id === id)?.nack, { timeout: 20_000 })
      .toBe('500')
  })

  it('checks peer_msg and hist_sync receipts: only for what the phone sent this device', async () => {
    const phone = '15557100007'
    await sim.seedHistory(phone, { chats: 1, messagesPerChat: 2, days: 1 })
    const { sock } = await rig.link(phone, rig.historyConfig(), received())
    const sent = await sim.account(phone).waitForHistoryAcknowledged()
    const own = `${sim.account(phone).lid}@lid`
    expect(sim.violations()).toEqual([])
    await sock.sendReceipt(own, undefined, ['3EB0NEVERSENT'], 'hist_sync')
    await sock.sendReceipt(own, undefined, ['3EB0NEVERSENT2'], 'peer_msg')
    await sock.sendReceipt('15550000000@s.whatsapp.net', undefined, [sent[0]!.id], 'hist_sync')
    await expect.poll(() => sim.violations().length, { timeout: 5000 }).toBe(3)
    expect(sim.violations().map((v) => [v.kind, v.detail])).toEqual([
      ['unknown-receipt-reference', expect.stringContaining('3EB0NEVERSENT, which')],
      ['unknown-receipt-reference', expect.stringContaining('peer_msg receipt for message 3EB0NEVERSENT2')],
      ['unknown-receipt-reference', expect.stringContaining('not the account itself')],
    ])
  })
})
