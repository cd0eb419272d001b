import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../src/clock'
import { loadConfig } from '../../src/config'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { silentLogger } from '../../src/logger'
import { createApiKey } from '../../src/services/api-keys'
import { createWorkspace } from '../../src/services/workspaces'
import { type PairingApi, pairByQr, waitForSessionStatus } from '../support/pairing'
import { pollUntil } from '../support/poll'
import { listeningPort, spawnProcess } from '../support/process'
import { queryFile } from '../support/sqlite-file'
import { tempDir } from '../support/temp-dir'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'

/** Fields of Baileys' auth rows (creds, sessions, pre-keys, app-state keys) that hold secrets. */
const SECRET_FIELDS = new Set(['private', 'privKey', 'rootKey', 'key', 'keyData', 'advSecretKey', 'seed'])

/** Every secret in a session's auth rows, as bytes: the Buffer JSON of creds and keys, the base64 of Signal sessions. */
function secretsIn(databasePath: string): Buffer[] {
  const found: Buffer[] = []
  const bytesOf = (value: unknown): Buffer | undefined => {
    if (typeof value === 'string' && /^[A-Za-z0-9+/]{20,}={0,2}$/.test(value)) return Buffer.from(value, 'base64')
    const buffer = value as { type?: unknown; data?: unknown } | null
    if (buffer?.type === 'Buffer' && typeof buffer.data === 'string') return Buffer.from(buffer.data, 'base64')
    return undefined
  }
  const walk = (value: unknown, name: string): void => {
    const bytes = SECRET_FIELDS.has(name) ? bytesOf(value) : undefined
    if (bytes && bytes.length >= 16) return void found.push(bytes)
    if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) walk(inner, name === 'messageKeys' ? 'key' : key)
  }
  for (const row of queryFile<{ value: string }>(databasePath, 'SELECT value FROM wa_auth'))
    walk(JSON.parse(row.value), '')
  return found
}

/** The ways a key is written out: base64 (and url-safe), hex, util.inspect's `<Buffer 0a 1b …>`, a Uint8Array's numbers. */
const spellings = (secret: Buffer): string[] => [
  secret.toString('base64').replace(/=+$/, ''),
  secret.toString('base64url'),
  secret.toString('hex'),
  [...secret.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join(' '),
  [...secret.subarray(0, 8)].join(', '),
]

/**
 * What the real serve process prints while a session pairs, sends, has its Signal session replaced
 * by the contact (libsignal closes the old one: the line that used to dump `privKey` and `rootKey`
 * to stdout), reconnects and is disconnected: JSON lines only on stdout (stderr holds only the
 * start-up notice for people), and none carries key material.
 */
describe('serve prints JSON lines only, never Signal keys', { timeout: 180_000 }, () => {
  const dir = tempDir()
  let sim: WhatsAppSimulator
  let control: ControlApi
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
  })
  afterAll(async () => {
    await control.stop()
    await sim.stop()
    dir.cleanup()
  })

  /** A migrated database with a workspace and its key, so the first start prints no key banner. */
  async function seededDatabase(name: string): Promise<{ databasePath: string; key: string }> {
    const databasePath = join(dir.path, `${name}.db`)
    const db = await openDatabase(databasePath)
    migrate(db)
    const ctx = { config: loadConfig({ DATABASE_PATH: databasePath }), db, logger: silentLogger(), clock: systemClock }
    createWorkspace(ctx, { name: 'acme' })
    const { key } = createApiKey(ctx, { workspace: 'acme' })
    closeDatabase(db)
    return { databasePath, key }
  }

  /** Runs the whole life of a session through a gateway process at `logLevel`; answers what it printed. */
  async function runSessionLife(logLevel: string, account: string, contact: string) {
    sim.addContact(contact)
    const { databasePath, key } = await seededDatabase(logLevel)
    const gateway = spawnProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      DATABASE_PATH: databasePath,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: logLevel,
      WA_SIMULATOR: control.url,
    })
    const streams = { stdout: '', stderr: '' }
    gateway.child.stdout!.on('data', (chunk: Buffer) => (streams.stdout += chunk.toString()))
    gateway.child.stderr!.on('data', (chunk: Buffer) => (streams.stderr += chunk.toString()))
    const secrets: Buffer[] = []
    let exitCode: number | null = null
    try {
      const port = listeningPort(await gateway.waitForLine(/"msg":"listening"/, 30_000))
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
        return { status: response.status, body: (await response.json()) as any }
      }
      const api: PairingApi = { post: (path, body) => call('POST', path, body), get: (path) => call('GET', path) }
      const sessionId = await pairByQr(api, (qr, phone) => sim.scan(qr, phone), {
        sessionName: 'life',
        phone: account,
        webhookUrl: 'https://hooks.invalid/life',
        timeoutMs: 30_000,
      })
      await sim.account(account).waitForAppStateKey(20_000)
      const inbound = (n: number) =>
        pollUntil(
          () => queryFile(databasePath, "SELECT 1 FROM messages WHERE direction = 'inbound'").length,
          (count) => count >= n,
          { timeoutMs: 20_000, what: `${n} inbound message(s) to be stored` },
        )
      const sendAndDeliver = async (text: string) => {
        const sent = await call('POST', '/v1/message/text', { sessionId, phone: contact, message: text })
        expect(sent.status, JSON.stringify(sent.body)).toBe(200)
        await sim.contact(contact).waitForMessage((m) => m.id === sent.body.messageId, 20_000)
      }

      await sendAndDeliver('first send after pairing')
      await sim.contact(contact).send({ text: 'a reply on that session' }, { to: account })
      await inbound(1)
      secrets.push(...secretsIn(databasePath))

      // The contact's phone starts over: its pkmsg makes the gateway's libsignal close the session it held.
      sim.contact(contact).resetSignalSessions()
      await sim.contact(contact).send({ text: 'from a new session' }, { to: account })
      await inbound(2)
      await sendAndDeliver('on the new session')
      secrets.push(...secretsIn(databasePath))

      expect((await call('POST', `/v1/session/${sessionId}/restart`, {})).status).toBe(200)
      await waitForSessionStatus(api, sessionId, 'connected', 30_000)
      await sendAndDeliver('after the restart')
      secrets.push(...secretsIn(databasePath))

      expect((await call('DELETE', `/v1/session/disconnect/${sessionId}`)).status).toBe(200)
      await waitForSessionStatus(api, sessionId, 'disconnected', 20_000)
    } finally {
      exitCode = await gateway.stop()
    }
    expect(exitCode).toBe(0)
    expect(sim.violations()).toEqual([])
    return { ...streams, secrets }
  }

  /** The human lines of serve (src/cli/startup-notice.ts), the only ones on stderr. */
  const STARTUP_NOTICE =
    /^wa-gateway is up: panel http:\/\/127\.0\.0\.1:\d+\/panel · [^\n]+\nLost the API key\? Make a new one: npm run -s cli -- key create acme\n$/
  const expectNoKeyMaterial = (printed: string, secrets: Buffer[]) => {
    expect(secrets.length).toBeGreaterThan(20) // identity, noise, pre-keys, ratchet and chain keys
    for (const word of ['privKey', 'rootKey', 'chainKey', 'ephemeralKeyPair', 'SessionEntry', '<Buffer'])
      expect(printed).not.toContain(word)
    for (const secret of secrets) for (const spelled of spellings(secret)) expect(printed).not.toContain(spelled)
  }
  const jsonLines = (text: string) =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>
        } catch {
          throw new Error(`not a JSON line: ${line.slice(0, 300)}`)
        }
      })

  it('at the default level: JSON lines on stdout, only the start-up notice on stderr, nothing from a dependency', async () => {
    const { stdout, stderr, secrets } = await runSessionLife('info', '15550071001', '15550071101')
    expect(stderr).toMatch(STARTUP_NOTICE)
    const lines = jsonLines(stdout)
    expect(lines.some((line) => line.msg === 'listening')).toBe(true)
    expect(lines.filter((line) => line.lib === 'console')).toEqual([])
    expect(lines.filter((line) => (line.level as number) < 30 || (line.level as number) >= 50)).toEqual([])
    expectNoKeyMaterial(stdout, secrets)
  })

  it('at debug: what libsignal still says is a debug line of the log, and no key is in any line', async () => {
    const { stdout, stderr, secrets } = await runSessionLife('debug', '15550071002', '15550071102')
    expect(stderr).toMatch(STARTUP_NOTICE)
    const fromConsole = jsonLines(stdout).filter((line) => line.lib === 'console')
    // libsignal's words for the re-key, without the session it used to print after them
    for (const msg of ['Closing open session in favor of incoming prekey bundle', 'Closing session'])
      expect(fromConsole).toContainEqual({
        level: 20,
        time: expect.any(Number),
        lib: 'console',
        method: expect.any(String),
        msg,
      })
    expectNoKeyMaterial(stdout, secrets)
  })
})
