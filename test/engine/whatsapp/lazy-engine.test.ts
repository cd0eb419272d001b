import { spawnSync } from 'node:child_process'
import { createWebVersionKeeper } from '../../../src/engine/whatsapp/socket/web-version'
import { silentLogger } from '../../../src/logger'
import { describe, expect, it } from 'vitest'
import type { AuthStore } from '../../../src/engine/whatsapp/port/auth-store'
import { FactListeners } from '../../../src/engine/whatsapp/fact-listeners'
import { lazyEngine } from '../../../src/engine/whatsapp/lazy-engine'
import type { EngineFact, SessionHandle, WhatsAppEngine } from '../../../src/engine/whatsapp/port'
import { repoRoot } from '../../support/process'

/**
 * A gateway that serves requests but has no live session must not load Baileys (with
 * libsignal and protobufjs, most of its memory and start time) or the media tools.
 */
describe('lazy loading', () => {
  it('serves /health and authed routes without loading Baileys, ffmpeg or file-type', () => {
    const probe = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/lazy-load-probe.ts'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
    expect(probe.status, probe.stderr).toBe(0)
    const report = JSON.parse(probe.stdout.trim().split('\n').pop()!) as Record<string, unknown>
    expect(report).toMatchObject({
      statuses: [200, 200, 200],
      baileys: false,
      libsignal: false,
      ffmpeg: false,
      fileType: false,
    })
    expect(report.modules).toBeGreaterThan(50) // the hooks did see the gateway's own imports
  })
})

describe('lazyEngine facts', () => {
  /** A stand-in for the loaded engine: only what the lazy one forwards. */
  const loadedEngine = () => {
    const listeners = new FactListeners()
    const engine = {
      onFact: (listener) => listeners.add(listener),
      open: async () => ({}) as SessionHandle,
      session: () => undefined,
      hasCredentials: () => false,
      wipeCredentials: () => {},
      stopAll: async () => {},
      downloadMedia: async () => ({ body: new ReadableStream(), size: 0 }),
      async *readHistory() {},
      webVersion: () => ({ version: '2.3000.1', source: 'bundled' as const }),
    } satisfies WhatsAppEngine
    return { engine, emit: listeners.emit }
  }
  const fact: EngineFact = { type: 'qr', qr: 'ref', sessionId: 'ses_1', socket: 1 }

  it('passes the loaded engine’s facts to listeners subscribed before it loaded, until they unsubscribe', async () => {
    const real = loadedEngine()
    const versions = createWebVersionKeeper({ timeoutMs: 1_000, logger: silentLogger() })
    const lazy = lazyEngine({} as AuthStore, versions, async () => real.engine)
    const seen: EngineFact[] = []
    const unsubscribe = lazy.onFact((f) => seen.push(f))
    await lazy.open('ses_1', { mode: 'qr', autoRejectCalls: false })
    real.emit(fact)
    expect(seen).toEqual([fact])
    unsubscribe()
    real.emit(fact)
    expect(seen).toEqual([fact])
  })
})
