import { proto } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { shouldSyncHistory } from '../../../../src/engine/whatsapp/socket/history-sync'

describe('shouldSyncHistory', () => {
  it('lets Baileys read no history chunk itself: its reader fetches outside the address guard (the engine reads them)', () => {
    const types = Object.values(proto.HistorySync.HistorySyncType).filter((v): v is number => typeof v === 'number')
    expect(types.length).toBeGreaterThan(4)
    for (const syncType of types) expect(shouldSyncHistory({ syncType })).toBe(false)
  })
})
