import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { routeConsoleToLogger } from '../src/console-capture'
import { createLogger } from '../src/logger'
import { bin, repoRoot } from './support/process'

/** A logger whose JSON lines land in an array. */
function capturingLogger(level: string) {
  const lines: Record<string, unknown>[] = []
  const logger = createLogger(level, { write: (line: string) => void lines.push(JSON.parse(line)) })
  return { logger, lines }
}

/** The probe process on `runtime`: what it printed on stdout and on stderr. */
async function runProbe(runtime: 'node' | 'bun', key: Buffer) {
  const [command, args] =
    runtime === 'node'
      ? [process.execPath, ['--import', 'tsx', 'test/support/console-probe.ts']]
      : [bin('bun'), ['test/support/console-probe.ts']]
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, PROBE_KEY: key.toString('hex') } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise((resolve) => child.on('close', resolve))
  return { code, stdout, stderr }
}

describe('routeConsoleToLogger', () => {
  let restore: (() => void) | undefined
  afterEach(() => {
    restore?.()
    restore = undefined
  })

  it('makes every console call a debug line of the log, keys redacted', () => {
    const { logger, lines } = capturingLogger('debug')
    restore = routeConsoleToLogger(logger)
    const privKey = randomBytes(32)
    // libsignal 6's call, before the patch
    console.info('Closing session:', { currentRatchet: { ephemeralKeyPair: { privKey }, rootKey: randomBytes(32) } })
    console.warn('Closing open session in favor of incoming prekey bundle')
    console.log('%s joined', 'ana')
    console.error(new Error('Bad MAC'))
    console.count('retries')
    console.table([{ a: 1 }])
    console.assert(false, 'checked')
    console.dir({ token: 'wag_secret' })

    expect(lines.every((line) => line.level === 20 && line.lib === 'console')).toBe(true)
    const messages = lines.map((line) => line.msg as string)
    expect(messages[0]).toMatch(
      /^Closing session: \{\s+currentRatchet: \{ ephemeralKeyPair: '\[redacted\]', rootKey: '\[redacted\]' \}/,
    )
    expect(messages.slice(1, 3)).toEqual(['Closing open session in favor of incoming prekey bundle', 'ana joined'])
    expect(messages[3]).toMatch(/^Error: Bad MAC\n\s+at /)
    expect(messages.slice(4)).toEqual([
      'retries: 1',
      expect.stringContaining('│ a │'),
      'Assertion failed: checked',
      "{ token: '[redacted]' }",
    ])
    expect(lines.map((line) => line.method)).toEqual([
      'info',
      'warn',
      'log',
      'error',
      'count',
      'table',
      'assert',
      'dir',
    ])
    const printed = JSON.stringify(lines)
    expect(printed).not.toContain(privKey.toString('hex').slice(0, 16))
    expect(printed).not.toContain(privKey.toString('base64').slice(0, 16))
    expect(printed).not.toContain('wag_secret')
  })

  it('drops console output unformatted below debug, and follows the logger level as it changes', () => {
    const { logger, lines } = capturingLogger('info')
    restore = routeConsoleToLogger(logger)
    let formatted = false
    const probe = {
      [Symbol.for('nodejs.util.inspect.custom')]: () => {
        formatted = true
        return 'probe'
      },
    }
    console.log('noise', probe)
    console.error('more noise')
    expect(lines).toEqual([])
    expect(formatted).toBe(false)

    logger.level = 'debug'
    console.log('now', 'shown')
    expect(lines.map((line) => line.msg)).toEqual(['now shown'])
  })

  it('puts the console and the warning printers back', () => {
    const before = { log: console.log, info: console.info, error: console.error, table: console.table }
    const printers = process.listeners('warning')
    const restoreNow = routeConsoleToLogger(capturingLogger('debug').logger)
    expect(console.log).not.toBe(before.log)
    expect(process.listeners('warning')).not.toEqual(printers)
    restoreNow()
    expect({ log: console.log, info: console.info, error: console.error, table: console.table }).toEqual(before)
    expect(process.listeners('warning')).toEqual(printers)
  })

  // A process of its own, as the runtime sets it up: vitest gives tests a console of its own.
  it.each(['node', 'bun'] as const)(
    'leaves only JSON lines on stdout and nothing on stderr in a %s process, process warnings included',
    { timeout: 30_000 },
    async (runtime) => {
      const key = randomBytes(32)
      const { code, stdout, stderr } = await runProbe(runtime, key)
      expect(code).toBe(0)
      expect(stderr).toBe('')
      const lines = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: number; lib: string; method: string; msg: string })
      expect(lines.map(({ level, lib, method }) => ({ level, lib, method }))).toEqual([
        { level: 20, lib: 'console', method: 'info' },
        { level: 20, lib: 'console', method: 'error' },
        { level: 20, lib: 'console', method: 'warning' },
      ])
      expect(lines[0]!.msg).toBe("Closing session: { currentRatchet: { ephemeralKeyPair: '[redacted]' } }")
      expect(lines[2]!.msg).toContain('DeprecationWarning: an old API')
      expect(stdout).not.toContain(key.toString('hex').slice(0, 16))
      expect(stdout).not.toContain([...key.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' '))
    },
  )
})
