import { describe, expect, it } from 'vitest'
import { shouldSyncHistory } from '../../../../src/engine/whatsapp/socket/history-sync'

describe('shouldSyncHistory', () => {
  it('processes the history types that carry LID mappings and refuses recent and full history', () => {
    expect(shouldSyncHistory({ syncType: 0 })).toBe(true) // INITIAL_BOOTSTRAP
    expect(shouldSyncHistory({ syncType: 4 })).toBe(true) // PUSH_NAME
    expect(shouldSyncHistory({ syncType: 3 })).toBe(false) // RECENT
    expect(shouldSyncHistory({ syncType: 2 })).toBe(false) // FULL
  })
})
