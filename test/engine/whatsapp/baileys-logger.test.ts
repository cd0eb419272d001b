import { describe, expect, it } from 'vitest'
import { baileysLineLevel, baileysLogger, baileysLogLevel } from '../../../src/engine/whatsapp/baileys-logger'
import { createLogger } from '../../../src/logger'

const streamError = (code: string) => ({ fullErrorNode: { tag: 'stream:error', attrs: { code } } })

describe('the levels of Baileys’ lines', () => {
  it('logs the restart after pairing at debug and other stream errors at info (the gateway logs the close)', () => {
    expect(baileysLineLevel('error', streamError('515'), 'stream errored out')).toBe('debug')
    expect(baileysLineLevel('error', streamError('401'), 'stream errored out')).toBe('info')
    expect(baileysLineLevel('error', { fullErrorNode: { tag: 'stream:error', attrs: {} } }, 'stream errored out')).toBe(
      'info',
    )
  })

  it('logs Baileys’ “connection errored” (a stack at every close) at debug: the gateway logs the close itself', () => {
    const trace = 'Error: Stream Errored (restart required)\n    at WebSocketClient.<anonymous> (socket.js:795:18)'
    expect(baileysLineLevel('info', { trace }, 'connection errored')).toBe('debug')
  })

  it('logs Baileys’ warning about refused history sync at debug: the engine reads the chunks, LID mappings included', () => {
    const warning =
      '⚠️ DANGER: DISABLING ALL SYNC BY shouldSyncHistoryMsg PREVENTS BAILEYS FROM ACCESSING INITIAL LID MAPPINGS, LEADING TO INSTABILIY AND SESSION ERRORS'
    expect(baileysLineLevel('warn', warning, warning)).toBe('debug')
  })

  it('keeps Baileys’ level for every line it does not know', () => {
    expect(baileysLineLevel('error', { err: new Error('x') }, 'failed to decrypt message')).toBe('error')
    expect(baileysLineLevel('warn', 'keep alive called when WS not open', undefined)).toBe('warn')
  })

  it('writes through the gateway’s logger at the new level, children and string-only calls included', () => {
    const written: string[] = []
    const logger = baileysLogger(createLogger('debug', { write: (text: string) => void written.push(text) }), 'debug')
    logger.child({ class: 'baileys' }).error(streamError('515'), 'stream errored out')
    logger.warn('no name present, ignoring presence update request...')
    logger.error({ node: 'x' }, 'error in handling message')
    expect(written.map((text) => JSON.parse(text)).map((l) => [l.level, l.lib, l.class, l.msg])).toEqual([
      [20, 'baileys', 'baileys', 'stream errored out'],
      [20, 'baileys', undefined, 'no name present, ignoring presence update request...'],
      [50, 'baileys', undefined, 'error in handling message'],
    ])
    expect(logger.level).toBe('debug')
  })
})

describe('baileysLogLevel', () => {
  it('lets Baileys log at the operator’s level, never below warn unless debugging', () => {
    expect(baileysLogLevel('info')).toBe('warn')
    expect(baileysLogLevel('warn')).toBe('warn')
    expect(baileysLogLevel('error')).toBe('error')
    expect(baileysLogLevel('silent')).toBe('silent')
    expect(baileysLogLevel('debug')).toBe('debug')
  })
})
