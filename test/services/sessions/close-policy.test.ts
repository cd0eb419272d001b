import { DisconnectReason } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { closeReason, decideAfterClose } from '../../../src/services/sessions/close-policy'

const paired = { paired: true, mode: 'qr' as const, message: undefined }
const pairing = { paired: false, mode: 'qr' as const }

describe('decideAfterClose', () => {
  it('restarts at once on 515, paired or not', () => {
    expect(decideAfterClose({ ...paired, code: 515 })).toEqual({ action: 'reconnect', immediately: true })
    expect(decideAfterClose({ ...pairing, code: 515, message: undefined })).toEqual({
      action: 'reconnect',
      immediately: true,
    })
  })

  it('expires a pairing whose QR refs ran out, naming QR or pairing code', () => {
    const qr = decideAfterClose({ ...pairing, code: DisconnectReason.timedOut, message: 'QR refs attempts ended' })
    expect(qr).toEqual({ action: 'stop', status: 'expired', reason: 'qr_timeout', wipeCredentials: true })
    const code = decideAfterClose({ paired: false, mode: 'pairing', code: 408, message: 'QR refs attempts ended' })
    expect(code).toMatchObject({ status: 'expired', reason: 'pairing_code_timeout' })
  })

  it('expires a pairing interrupted by anything else', () => {
    expect(decideAfterClose({ ...pairing, code: 428, message: 'Connection Closed' })).toMatchObject({
      status: 'expired',
      reason: 'pairing_interrupted',
    })
  })

  it('logs out on 401 and 403, wiping credentials', () => {
    expect(decideAfterClose({ ...paired, code: 401 })).toEqual({
      action: 'stop',
      status: 'logged_out',
      reason: 'device_removed',
      wipeCredentials: true,
    })
    expect(decideAfterClose({ ...paired, code: 403 })).toMatchObject({ status: 'logged_out', reason: 'forbidden' })
  })

  it('stops without wiping on 440, so two clients do not kick each other forever', () => {
    expect(decideAfterClose({ ...paired, code: 440 })).toEqual({
      action: 'stop',
      status: 'disconnected',
      reason: 'connection_replaced',
      wipeCredentials: false,
    })
  })

  it('reconnects with backoff on drops, timeouts and unknown codes', () => {
    for (const code of [428, 408, 500, 503, 411, undefined, 999]) {
      expect(decideAfterClose({ ...paired, code })).toEqual({ action: 'reconnect', immediately: false })
    }
    expect(closeReason(428)).toBe('connection_closed')
    expect(closeReason(408)).toBe('connection_lost')
    expect(closeReason(undefined)).toBe('connection_error')
  })

  it('reconnects a paired session with backoff whatever the engine’s cause, naming the cause', () => {
    for (const cause of ['unresponsive', 'outdated_version', 'proxy_unreachable', 'proxy_forbidden'] as const) {
      expect(decideAfterClose({ ...paired, code: 405, cause })).toEqual({ action: 'reconnect', immediately: false })
      expect(closeReason(428, cause)).toBe(cause)
    }
  })

  it('expires a pairing that could not reach WhatsApp or was refused as outdated, naming why', () => {
    for (const cause of ['outdated_version', 'proxy_unreachable', 'proxy_forbidden'] as const)
      expect(decideAfterClose({ ...pairing, cause })).toEqual({
        action: 'stop',
        status: 'expired',
        reason: cause,
        wipeCredentials: true,
      })
    expect(decideAfterClose({ ...pairing, code: 408, cause: 'unresponsive' })).toMatchObject({
      reason: 'pairing_interrupted',
    })
  })
})
