import { describe, expect, it } from 'vitest'
import { canAdvance } from '../../../../src/services/messages/records/status-order'

describe('message status order', () => {
  it('moves forward only, whatever order receipts arrive in', () => {
    expect(canAdvance('pending', 'sent')).toBe(true)
    expect(canAdvance('pending', 'read')).toBe(true) // delivered and read merged into one receipt
    expect(canAdvance('read', 'delivered')).toBe(false)
    expect(canAdvance('delivered', 'sent')).toBe(false)
    expect(canAdvance('read', 'played')).toBe(true)
    expect(canAdvance('played', 'read')).toBe(false)
    expect(canAdvance('sent', 'sent')).toBe(false)
  })

  it('fails only before delivery, and deleted ends everything', () => {
    expect(canAdvance('pending', 'failed')).toBe(true)
    expect(canAdvance('delivered', 'failed')).toBe(false)
    expect(canAdvance('read', 'deleted')).toBe(true)
    expect(canAdvance('deleted', 'read')).toBe(false)
    expect(canAdvance('failed', 'sent')).toBe(false)
    expect(canAdvance('received', 'deleted')).toBe(true)
  })

  it('an inbound message goes from received to read (the session marked it read), and no other way', () => {
    expect(canAdvance('received', 'read')).toBe(true)
    expect(canAdvance('received', 'delivered')).toBe(false)
    expect(canAdvance('received', 'played')).toBe(false)
    expect(canAdvance('received', 'failed')).toBe(false)
    expect(canAdvance('read', 'received')).toBe(false)
  })
})
