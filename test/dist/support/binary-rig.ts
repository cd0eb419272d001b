import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { readWebpInfo } from '../../../src/media/webp-header'
import { readElfHeader } from '../../support/elf'
import { isRefused, openSocket } from '../../support/event-socket'
import { httpGateway } from '../../support/http-gateway'
import { fixtures } from '../../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../../support/media-server'
import { bin, listeningPort, repoRoot, spawnProcess, type Spawned } from '../../support/process'
import { tempDir } from '../../support/temp-dir'
import { ControlApi } from '../../wa-sim/control-api'
import { WhatsAppSimulator } from '../../wa-sim/simulator'

export interface BinaryTarget {
  /** build-binary.ts's name for it. */
  target: 'linux-x64' | 'linux-arm64'
  /** What it writes under dist/. */
  file: string
  /** How to start the copied executable with these arguments (directly, or under qemu). */
  launch(binary: string, args: string[]): { command: string; args: string[] }
  /** Emulation is slow: every wait is scaled by it. */
  slowness: number
}

export interface BinaryRig {
  /** The copy, alone in an empty directory. */
  binary: string
  dir: string
  sim: WhatsAppSimulator
  files: MediaServer
  /** The bare environment it runs with (PATH an empty directory); TEST_KEY once the CLI made one. */
  env: Record<string, string>
  run(args: string[]): { status: number | null; stdout: string; stderr: string }
  /** `serve`, waiting for it to listen: its process, base URL and an API client with TEST_KEY. */
  serve(): Promise<{ server: Spawned; base: string; api: ReturnType<typeof httpGateway> }>
  close(): Promise<void>
}

/**
 * What both binary tests share: `npm run build:binary` for one target, the executable copied
 * alone into an empty directory and run from another one with a bare environment (no
 * node_modules, no ffmpeg on PATH), so migrations, the docs assets and ffmpeg must all come from
 * inside it; a simulator and a media server on loopback.
 */
export async function startBinaryRig(spec: BinaryTarget, contact: string): Promise<BinaryRig> {
  const dir = tempDir(`wa-binary-${spec.target}-`)
  const binary = join(dir.path, 'bin', spec.file)
  const work = join(dir.path, 'work')
  const started = performance.now()
  const built = spawnSync(bin('bun'), ['scripts/build-binary.ts', spec.target], { cwd: repoRoot, encoding: 'utf8' })
  if (built.status !== 0) throw new Error(`build:binary failed:\n${built.stdout}\n${built.stderr}`)
  console.log(`${built.stdout.trim()} (${Math.round(performance.now() - started)} ms with fetching)`)
  for (const folder of ['bin', 'empty-path', 'work']) mkdirSync(join(dir.path, folder))
  copyFileSync(join(repoRoot, 'dist', spec.file), binary)
  const sim = await WhatsAppSimulator.start()
  const control = await ControlApi.start(sim)
  sim.addContact(contact)
  const files = await startMediaServer()
  // No NODE_EXTRA_CA_CERTS: with WA_SIMULATOR the binary trusts the simulator's media host by
  // itself (Baileys moves media with Bun's fetch, which ignores the https.Agent).
  const env: Record<string, string> = {
    PATH: join(dir.path, 'empty-path'),
    HOME: work,
    CACHE_DIRECTORY: join(dir.path, 'cache'),
    DATABASE_PATH: 'data/gateway.db', // relative: resolved against the working directory
    WA_SIMULATOR: control.url,
    ALLOW_PRIVATE_ADDRESSES: 'true',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    METRICS_TOKEN: 'binary-rig-metrics-token',
  }
  let server: Spawned | undefined
  return {
    binary,
    dir: dir.path,
    sim,
    files,
    env,
    run(args) {
      const { command, args: argv } = spec.launch(binary, args)
      const result = spawnSync(command, argv, { cwd: work, env, encoding: 'utf8', timeout: 60_000 * spec.slowness })
      return { status: result.status, stdout: result.stdout, stderr: result.stderr }
    },
    async serve() {
      const { command, args } = spec.launch(binary, ['serve'])
      server = spawnProcess(command, args, env, { cwd: work, inheritEnv: false })
      const port = listeningPort(await server.waitForLine(/"msg":"listening"/, 30_000 * spec.slowness))
      const base = `http://127.0.0.1:${port}`
      return { server, base, api: httpGateway(base, env.TEST_KEY!, { pairingTimeoutMs: 20_000 * spec.slowness }) }
    },
    async close() {
      await server?.stop()
      await control.stop()
      await sim.stop()
      await files.close()
      dir.cleanup()
    },
  }
}

/** migrate, workspace create, key create: the key goes into the rig's env as TEST_KEY. */
export function checkCliCommands(rig: BinaryRig): void {
  const migrated = rig.run(['migrate'])
  expect(migrated.status, migrated.stderr).toBe(0)
  expect(migrated.stdout).toMatch(/^\d+ migration\(s\) applied; \d+ in total at data\/gateway.db/)
  expect(rig.run(['workspace', 'create', 'acme', '--plan', 'paid']).stdout).toMatch(/acme\s+paid/)
  const key = rig.run(['key', 'create', 'acme'])
  expect(key.stdout.trim()).toMatch(/^wag_[a-z2-7]{40}$/)
  rig.env.TEST_KEY = key.stdout.trim()
}

/**
 * A text, then what only ffmpeg can make (MP3 → Ogg/Opus voice note, PNG → WebP sticker) with
 * PATH holding none: the ffmpeg the binary carried and extracted, for `machine`, did it.
 */
export async function checkSends(
  rig: BinaryRig,
  running: Awaited<ReturnType<BinaryRig['serve']>>,
  args: { sessionId: string; contact: string; machine: string; timeoutMs: number },
): Promise<void> {
  const { api, server, base } = running
  const { sessionId, contact, timeoutMs } = args
  const inbox = rig.sim.contact(contact)
  // The event socket, as the binary's own server upgrades it (Bun's, compiled in).
  const socket = await openSocket(`${base.replace(/^http/, 'ws')}/v1/events/ws?sessionId=${sessionId}`, {
    protocols: ['wag.events.v1', `wag.bearer.${rig.env.TEST_KEY}`],
  })
  if (isRefused(socket)) throw new Error(`event socket refused: ${JSON.stringify(socket)}`)
  await socket.until((frames) => frames.some((f) => f.json.type === 'ready'), timeoutMs)
  const text = await api.post('/v1/message/text', { sessionId, phone: contact, message: `from ${rig.binary}` })
  expect(text.status, JSON.stringify(text.body)).toBe(200)
  const received = await inbox.waitForMessage((m) => m.id === text.body.messageId, timeoutMs)
  expect(received.message.conversation ?? received.message.extendedTextMessage?.text).toBe(`from ${rig.binary}`)
  await socket.until(
    (frames) =>
      frames.some((f) => f.json.type === 'message.status' && f.json.data.data.messageId === text.body.messageId),
    timeoutMs,
  )
  socket.close()

  rig.files.serve('voice.mp3', await fixtures.mp3(3), 'audio/mpeg')
  const voice = await api.post('/v1/message/audio', {
    sessionId,
    phone: contact,
    audioUrl: rig.files.url('voice.mp3'),
    ptt: true,
  })
  const errors = server
    .output()
    .split('\n')
    .filter((line) => /"level":[456]0/.test(line))
  expect(voice.status, errors.join('\n')).toBe(200)
  const audio = (await inbox.waitForMessage((m) => m.id === voice.body.messageId, timeoutMs)).message.audioMessage!
  expect(audio).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' })
  const media = await inbox.media(voice.body.messageId)
  expect(Buffer.from(media.bytes).subarray(0, 4).toString('latin1')).toBe('OggS')

  rig.files.serve('photo.png', await fixtures.png(), 'image/png')
  const sticker = await api.post('/v1/message/sticker', {
    sessionId,
    phone: contact,
    stickerUrl: rig.files.url('photo.png'),
  })
  expect(sticker.status, JSON.stringify(sticker.body)).toBe(200)
  await inbox.waitForMessage((m) => m.id === sticker.body.messageId, timeoutMs)
  expect(readWebpInfo((await inbox.media(sticker.body.messageId)).bytes)).toMatchObject({ width: 512, height: 512 })

  const extracted = join(rig.env.CACHE_DIRECTORY!, `wa-gateway-${process.getuid!()}`)
  expect(readdirSync(extracted)).toHaveLength(1)
  expect(readElfHeader(join(extracted, readdirSync(extracted)[0]!)).machine).toBe(args.machine)
}

/** SIGTERM: a clean stop, and the API key never in its output. */
export async function checkStops(rig: BinaryRig, server: Spawned): Promise<void> {
  expect(await server.stop()).toBe(0)
  expect(server.output()).toContain('"msg":"stopped"')
  expect(server.output()).not.toContain(rig.env.TEST_KEY!)
}
