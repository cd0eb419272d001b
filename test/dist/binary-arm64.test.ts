import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readWebpInfo } from '../../src/media/webp-header'
import { readElfHeader } from '../support/elf'
import { fixtures } from '../support/media-fixtures'
import { httpGateway } from '../support/http-gateway'
import { startMediaServer, type MediaServer } from '../support/media-server'
import { bin, listeningPort, repoRoot, spawnProcess, type Spawned } from '../support/process'
import { tempDir } from '../support/temp-dir'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'

const ACCOUNT = '15550010002'
const CONTACT = '15551230002'

/**
 * Debian's qemu-user runs the AArch64 executable on this x64 machine (.ci/run installs it):
 * `-L` points its dynamic loader at libc6-arm64-cross's glibc (Bun links glibc dynamically), and
 * the binfmt_misc entry lets the kernel hand the ffmpeg the gateway spawns, also AArch64
 * (static), to qemu too. Emulated, everything is ~20–50× slower: the timeouts are generous.
 */
const QEMU = '/usr/bin/qemu-aarch64'
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu'
const BINFMT = '/proc/sys/fs/binfmt_misc/qemu-aarch64'

function requireEmulation(): void {
  const missing = [
    existsSync(QEMU) ? '' : `${QEMU} (apt-get install qemu-user)`,
    existsSync(join(ARM64_SYSROOT, 'lib/ld-linux-aarch64.so.1'))
      ? ''
      : `${ARM64_SYSROOT} (apt-get install libc6-arm64-cross)`,
    existsSync(BINFMT) && readFileSync(BINFMT, 'utf8').startsWith('enabled')
      ? ''
      : `${BINFMT} (binfmt_misc entry for AArch64: see .ci/run)`,
  ].filter(Boolean)
  if (missing.length > 0) throw new Error(`the arm64 binary runs under qemu-user; missing: ${missing.join(', ')}`)
}

/**
 * `npm run build:binary` → dist/wa-gateway-linux-arm64, proven as test/dist/binary.test.ts proves
 * the x64 one: copied alone into an empty directory and run with a bare environment (PATH an empty
 * directory, no node_modules), so the runtime, migrations and ffmpeg all come from inside it.
 * Not real ARM hardware: user-mode emulation of the same instructions on this CPU.
 */
describe('the single binary for linux-arm64, under qemu-user', () => {
  const dir = tempDir('wa-binary-arm64-')
  const binary = join(dir.path, 'bin', 'wa-gateway-linux-arm64')
  const work = join(dir.path, 'work')
  const cache = join(dir.path, 'cache')
  let sim: WhatsAppSimulator
  let control: ControlApi
  let files: MediaServer
  let server: Spawned | undefined
  let env: Record<string, string>
  const emulated = (args: string[]) => ['-L', ARM64_SYSROOT, binary, ...args]

  const run = (args: string[]) => {
    const result = spawnSync(QEMU, emulated(args), { cwd: work, env, encoding: 'utf8', timeout: 120_000 })
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  beforeAll(async () => {
    requireEmulation()
    const started = performance.now()
    const built = spawnSync(bin('bun'), ['scripts/build-binary.ts', 'linux-arm64'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
    if (built.status !== 0) throw new Error(`build:binary failed:\n${built.stdout}\n${built.stderr}`)
    console.log(`${built.stdout.trim()} (with fetching: ${Math.round(performance.now() - started)} ms)`)
    mkdirSync(join(dir.path, 'bin'))
    mkdirSync(join(dir.path, 'empty-path'))
    mkdirSync(work)
    copyFileSync(join(repoRoot, 'dist/wa-gateway-linux-arm64'), binary)
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
    sim.addContact(CONTACT)
    files = await startMediaServer()
    env = {
      PATH: join(dir.path, 'empty-path'),
      HOME: work,
      CACHE_DIRECTORY: cache,
      DATABASE_PATH: 'data/gateway.db',
      WA_SIMULATOR: control.url,
      ALLOW_PRIVATE_ADDRESSES: 'true',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
    }
  }, 600_000)
  afterAll(async () => {
    await server?.stop()
    await control?.stop()
    await sim?.stop()
    await files?.close()
    dir.cleanup()
  })

  it('is an ELF executable for AArch64', () => {
    expect(readElfHeader(binary)).toEqual({ class: '64-bit', endian: 'LSB', machine: 'AArch64' })
  })

  it('runs the CLI commands: migrate, workspace create, key create', () => {
    const started = performance.now()
    const migrated = run(['migrate'])
    expect(migrated.status, migrated.stderr).toBe(0)
    console.log(`arm64 binary under qemu: migrate in ${Math.round(performance.now() - started)} ms`)
    expect(migrated.stdout).toMatch(/^\d+ migration\(s\) applied; \d+ in total at data\/gateway.db/)
    expect(run(['workspace', 'create', 'acme', '--plan', 'paid']).stdout).toMatch(/acme\s+paid/)
    const key = run(['key', 'create', 'acme'])
    expect(key.stdout.trim()).toMatch(/^wag_[a-z2-7]{40}$/)
    env.TEST_KEY = key.stdout.trim()
  }, 360_000)

  it('serves /health, pairs against the simulator, sends a text, a voice note and a sticker made by its own arm64 ffmpeg', async () => {
    const started = performance.now()
    server = spawnProcess(QEMU, emulated(['serve']), env, { cwd: work, inheritEnv: false })
    const port = listeningPort(await server.waitForLine(/"msg":"listening"/, 120_000))
    console.log(`arm64 binary under qemu: listening ${Math.round(performance.now() - started)} ms after spawn`)
    const base = `http://127.0.0.1:${port}`
    const api = httpGateway(base, env.TEST_KEY!, { pairingTimeoutMs: 120_000 })

    expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ status: 'ok' })

    const sessionId = await api.pairByQr(sim, 'binary-arm64', ACCOUNT)
    const text = await api.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'from the arm64 binary' })
    expect(text.status, JSON.stringify(text.body)).toBe(200)
    const inbox = await sim.contact(CONTACT).waitForMessage((m) => m.id === text.body.messageId, 60_000)
    expect(inbox.message.conversation ?? inbox.message.extendedTextMessage?.text).toBe('from the arm64 binary')

    // MP3 → Ogg/Opus and PNG → WebP: only ffmpeg does those, and PATH holds none.
    files.serve('voice.mp3', await fixtures.mp3(3), 'audio/mpeg')
    const voice = await api.post('/v1/message/audio', {
      sessionId,
      phone: CONTACT,
      audioUrl: files.url('voice.mp3'),
      ptt: true,
    })
    expect(
      voice.status,
      server
        .output()
        .split('\n')
        .filter((l) => /"level":[456]0/.test(l))
        .join('\n'),
    ).toBe(200)
    const audio = (await sim.contact(CONTACT).waitForMessage((m) => m.id === voice.body.messageId, 60_000)).message
      .audioMessage!
    expect(audio).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' })
    const media = await sim.contact(CONTACT).media(voice.body.messageId)
    expect(Buffer.from(media.bytes).subarray(0, 4).toString('latin1')).toBe('OggS')

    files.serve('photo.png', await fixtures.png(), 'image/png')
    const sticker = await api.post('/v1/message/sticker', {
      sessionId,
      phone: CONTACT,
      stickerUrl: files.url('photo.png'),
    })
    expect(sticker.status, JSON.stringify(sticker.body)).toBe(200)
    await sim.contact(CONTACT).waitForMessage((m) => m.id === sticker.body.messageId, 60_000)
    expect(readWebpInfo((await sim.contact(CONTACT).media(sticker.body.messageId)).bytes)).toMatchObject({
      width: 512,
      height: 512,
    })

    // The ffmpeg that converted them is the one the binary carried and extracted: AArch64's.
    const extracted = readdirSync(join(cache, `wa-gateway-${process.getuid!()}`))
    expect(extracted).toHaveLength(1)
    expect(readElfHeader(join(cache, `wa-gateway-${process.getuid!()}`, extracted[0]!))).toMatchObject({
      machine: 'AArch64',
    })

    expect(await server.stop()).toBe(0)
    expect(server.output()).toContain('"msg":"stopped"')
    expect(server.output()).not.toContain(env.TEST_KEY!)
    console.log(`arm64 binary under qemu: serve → stopped in ${Math.round(performance.now() - started)} ms`)
  }, 600_000)
})
