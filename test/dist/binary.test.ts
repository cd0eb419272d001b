import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readWebpInfo } from '../../src/media/webp-header'
import { readElfHeader } from '../support/elf'
import { fixtures } from '../support/media-fixtures'
import { httpGateway } from '../support/http-gateway'
import { startMediaServer, type MediaServer } from '../support/media-server'
import { bin, listeningPort, repoRoot, spawnProcess, type Spawned } from '../support/process'
import { queryFile } from '../support/sqlite-file'
import { tempDir } from '../support/temp-dir'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'

const ACCOUNT = '15550010001'
const CONTACT = '15551230001'

/**
 * `npm run build:binary` → dist/wa-gateway, copied alone into an empty directory and run from
 * another one with a bare environment: no node_modules, no ffmpeg on PATH (PATH is an empty
 * directory). Migrations, the docs assets and ffmpeg must all come from inside the executable.
 */
describe('the single binary', () => {
  const dir = tempDir('wa-binary-')
  const binary = join(dir.path, 'bin', 'wa-gateway')
  const work = join(dir.path, 'work')
  let sim: WhatsAppSimulator
  let control: ControlApi
  let files: MediaServer
  let server: Spawned | undefined
  let env: Record<string, string>

  const run = (args: string[]) => {
    const result = spawnSync(binary, args, { cwd: work, env, encoding: 'utf8' })
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  beforeAll(async () => {
    const built = spawnSync(bin('bun'), ['scripts/build-binary.ts', 'linux-x64'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
    if (built.status !== 0) throw new Error(`build:binary failed:\n${built.stdout}\n${built.stderr}`)
    console.log(built.stdout.trim())
    mkdirSync(join(dir.path, 'bin'))
    mkdirSync(join(dir.path, 'empty-path'))
    mkdirSync(work)
    copyFileSync(join(repoRoot, 'dist/wa-gateway'), binary)
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
    sim.addContact(CONTACT)
    files = await startMediaServer()
    // No NODE_EXTRA_CA_CERTS: with WA_SIMULATOR the binary trusts the simulator's media host by
    // itself (Baileys moves media with Bun's fetch, which ignores the https.Agent).
    env = {
      PATH: join(dir.path, 'empty-path'),
      HOME: work,
      CACHE_DIRECTORY: join(dir.path, 'cache'),
      DATABASE_PATH: 'data/gateway.db', // relative: resolved against the working directory
      WA_SIMULATOR: control.url,
      ALLOW_PRIVATE_ADDRESSES: 'true',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
    }
  }, 300_000)
  afterAll(async () => {
    await server?.stop()
    await control?.stop()
    await sim?.stop()
    await files?.close()
    dir.cleanup()
  })

  it('is an ELF executable for x86-64', () => {
    expect(readElfHeader(binary)).toEqual({ class: '64-bit', endian: 'LSB', machine: 'x86-64' })
  })

  it('runs the CLI commands: migrate, workspace create, key create', () => {
    const migrated = run(['migrate'])
    expect(migrated.status, migrated.stderr).toBe(0)
    expect(migrated.stdout).toMatch(/^\d+ migration\(s\) applied; \d+ in total at data\/gateway.db/)
    expect(run(['workspace', 'create', 'acme', '--plan', 'paid']).stdout).toMatch(/acme\s+paid/)
    const key = run(['key', 'create', 'acme'])
    expect(key.stdout.trim()).toMatch(/^wag_[a-z2-7]{40}$/)
    env.TEST_KEY = key.stdout.trim()
  })

  it('serves, pairs against the simulator, sends a text, a voice note and a sticker, and backs up while serving', async () => {
    const started = performance.now()
    server = spawnProcess(binary, ['serve'], env, { cwd: work, inheritEnv: false })
    const port = listeningPort(await server.waitForLine(/"msg":"listening"/))
    console.log(`binary: listening ${Math.round(performance.now() - started)} ms after spawn`)
    const base = `http://127.0.0.1:${port}`
    const api = httpGateway(base, env.TEST_KEY!)

    expect(await (await fetch(`${base}/docs`)).text()).toContain('swagger-ui-bundle.js')
    expect(await (await fetch(`${base}/openapi.json`)).json()).toMatchObject({ openapi: '3.1.0' })
    const css = await fetch(`${base}/docs/assets/swagger-ui.css`)
    expect(css.status).toBe(200)
    expect((await css.text()).length).toBeGreaterThan(10_000)
    expect((await fetch(`${base}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200)

    const sessionId = await api.pairByQr(sim, 'binary', ACCOUNT)
    const text = await api.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'from the binary' })
    expect(text.status, JSON.stringify(text.body)).toBe(200)
    const inbox = await sim.contact(CONTACT).waitForMessage((m) => m.id === text.body.messageId)
    expect(inbox.message.conversation ?? inbox.message.extendedTextMessage?.text).toBe('from the binary')

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
    const audio = (await sim.contact(CONTACT).waitForMessage((m) => m.id === voice.body.messageId)).message
      .audioMessage!
    expect(audio).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' })
    const media = await sim.contact(CONTACT).media(voice.body.messageId)
    expect(Buffer.from(media.bytes).subarray(0, 4).toString('latin1')).toBe('OggS')
    // Converted by the ffmpeg the binary carried and extracted (PATH holds none): x86-64's.
    const extracted = join(dir.path, 'cache', `wa-gateway-${process.getuid!()}`)
    expect(readdirSync(extracted)).toHaveLength(1)
    expect(readElfHeader(join(extracted, readdirSync(extracted)[0]!)).machine).toBe('x86-64')

    files.serve('photo.png', await fixtures.png(), 'image/png')
    const sticker = await api.post('/v1/message/sticker', {
      sessionId,
      phone: CONTACT,
      stickerUrl: files.url('photo.png'),
    })
    expect(sticker.status, JSON.stringify(sticker.body)).toBe(200)
    await sim.contact(CONTACT).waitForMessage((m) => m.id === sticker.body.messageId)
    expect(readWebpInfo((await sim.contact(CONTACT).media(sticker.body.messageId)).bytes)).toMatchObject({
      width: 512,
      height: 512,
    })

    const backup = run(['backup', join(dir.path, 'backup.db')])
    expect(backup.status, backup.stderr).toBe(0)
    expect(
      queryFile<{ n: number }>(join(dir.path, 'backup.db'), 'SELECT count(*) AS n FROM messages')[0]!.n,
    ).toBeGreaterThanOrEqual(2)

    expect(await server.stop()).toBe(0)
    expect(server.output()).toContain('"msg":"stopped"')
    expect(server.output()).not.toContain(env.TEST_KEY!)
  }, 120_000)
})
