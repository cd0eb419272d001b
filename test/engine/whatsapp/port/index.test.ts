import { DisconnectReason } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { CloseCode } from '../../../../src/engine/whatsapp/port'

describe('CloseCode', () => {
  it('keeps its close codes equal to Baileys’ DisconnectReason', () => {
    for (const [name, code] of Object.entries(CloseCode))
      expect(DisconnectReason[name as keyof typeof DisconnectReason], name).toBe(code)
  })
})
