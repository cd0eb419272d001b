import { DisconnectReason } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { baileysLogLevel } from '../../src/engine/whatsapp/baileys-logger'
import { shouldSyncHistory } from '../../src/engine/whatsapp/history-sync'
import { CloseCode } from '../../src/engine/whatsapp/types'
import { canAdvance } from '../../src/services/messages/status-order'
import { canTransition } from '../../src/services/sessions/transitions'

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
    expect(canAdvance('received', 'read')).toBe(false)
    expect(canAdvance('received', 'deleted')).toBe(true)
  })
})

describe('session transitions', () => {
  it('lets a client disconnect win over a late login', () => {
    expect(canTransition('pending', 'disconnected')).toBe(true)
    expect(canTransition('disconnected', 'connected')).toBe(false)
    expect(canTransition('expired', 'connected')).toBe(false)
    expect(canTransition('connected', 'connecting')).toBe(true)
    expect(canTransition('disconnected', 'pending')).toBe(true)
  })
})

describe('engine constants and settings', () => {
  it('keeps its close codes equal to Baileys’ DisconnectReason', () => {
    for (const [name, code] of Object.entries(CloseCode)) expect(DisconnectReason[name as keyof typeof DisconnectReason], name).toBe(code)
  })

  it('lets Baileys log at the operator’s level, never below warn unless debugging', () => {
    expect(baileysLogLevel('info')).toBe('warn')
    expect(baileysLogLevel('warn')).toBe('warn')
    expect(baileysLogLevel('error')).toBe('error')
    expect(baileysLogLevel('silent')).toBe('silent')
    expect(baileysLogLevel('debug')).toBe('debug')
  })

  it('processes the history types that carry LID mappings and refuses recent and full history', () => {
    expect(shouldSyncHistory({ syncType: 0 })).toBe(true) // INITIAL_BOOTSTRAP
    expect(shouldSyncHistory({ syncType: 4 })).toBe(true) // PUSH_NAME
    expect(shouldSyncHistory({ syncType: 3 })).toBe(false) // RECENT
    expect(shouldSyncHistory({ syncType: 2 })).toBe(false) // FULL
  })
})
