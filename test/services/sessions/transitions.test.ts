import { describe, expect, it } from 'vitest'
import { canTransition } from '../../../src/services/sessions/transitions'

describe('session transitions', () => {
  it('lets a client disconnect win over a late login', () => {
    expect(canTransition('pending', 'disconnected')).toBe(true)
    expect(canTransition('disconnected', 'connected')).toBe(false)
    expect(canTransition('expired', 'connected')).toBe(false)
    expect(canTransition('connected', 'connecting')).toBe(true)
    expect(canTransition('disconnected', 'pending')).toBe(true)
  })
})
