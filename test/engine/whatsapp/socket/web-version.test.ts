import { DEFAULT_CONNECTION_CONFIG } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import type { WaVersion } from '../../../../src/config'
import { BUNDLED_WA_VERSION, createWebVersionKeeper } from '../../../../src/engine/whatsapp/socket/web-version'
import { silentLogger } from '../../../../src/logger'

const logger = silentLogger()

describe('the WhatsApp Web version', () => {
  it('knows Baileys’ bundled version without loading Baileys', () => {
    expect(BUNDLED_WA_VERSION).toEqual(DEFAULT_CONNECTION_CONFIG.version)
  })

  it('never fetches when pinned, and keeps the pin after a 405', async () => {
    let calls = 0
    const keeper = createWebVersionKeeper({
      pinned: [2, 3000, 5],
      fetcher: async () => {
        calls++
        return [2, 3000, 9]
      },
      timeoutMs: 1_000,
      logger,
    })
    await keeper.refresh()
    await keeper.refreshAfterOutdated([2, 3000, 5])
    expect(calls).toBe(0)
    expect(keeper.info()).toEqual({ version: '2.3000.5', source: 'pinned' })
  })

  it('keeps the bundled version when the fetch fails or outlasts its timeout', async () => {
    const failing = createWebVersionKeeper({
      fetcher: async () => {
        throw new Error('offline')
      },
      timeoutMs: 1_000,
      logger,
    })
    await failing.refresh()
    expect(failing.info()).toEqual({ version: BUNDLED_WA_VERSION.join('.'), source: 'bundled' })
    const hanging = createWebVersionKeeper({ fetcher: () => new Promise(() => {}), timeoutMs: 50, logger })
    const started = Date.now()
    await hanging.refresh()
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(hanging.info().source).toBe('bundled')
  })

  it('asks once for many sessions refused at once, and not again for a version already replaced', async () => {
    const answers: WaVersion[] = [
      [2, 3000, 7],
      [2, 3000, 8],
    ]
    let calls = 0
    const keeper = createWebVersionKeeper({ fetcher: async () => answers[calls++], timeoutMs: 1_000, logger })
    await keeper.refresh()
    expect(keeper.current()).toEqual([2, 3000, 7])
    await Promise.all([1, 2, 3].map(() => keeper.refreshAfterOutdated([2, 3000, 7])))
    expect(calls).toBe(2)
    expect(keeper.info()).toEqual({ version: '2.3000.8', source: 'fetched' })
    await keeper.refreshAfterOutdated([2, 3000, 7]) // a late 405 of a socket that announced the old one
    expect(calls).toBe(2)
  })
})
