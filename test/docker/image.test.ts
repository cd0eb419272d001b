import { type SpawnSyncReturns, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpGateway } from '../support/http-gateway'
import { fixtures } from '../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../support/media-server'
import { waitForSessionStatus } from '../support/pairing'
import { pollUntil } from '../support/poll'
import { repoRoot } from '../support/process'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'

/** WA_DOCKER_ARCH=arm64: the arm64 image, run under qemu-user (binfmt_misc), every wait scaled. */
const ARCH = process.env.WA_DOCKER_ARCH ?? 'amd64'
const SLOWNESS = ARCH === 'amd64' ? 1 : 6
const IMAGE = `localhost/wa-session-gateway:proof-${ARCH}`
const ACCOUNT = '15550010003'
const CONTACT = '15551230003'
const PROOF = join(repoRoot, 'scripts/docker/proof.sh')
/** The image's user (Dockerfile: useradd --uid 10001). */
const GATEWAY_UID = 10001

function proof(args: string[], timeout = 120_000 * SLOWNESS): SpawnSyncReturns<string> {
  return spawnSync(PROOF, args, { cwd: repoRoot, encoding: 'utf8', timeout })
}
/** podman on the proof's storage; throws with its stderr unless it exits 0. */
function podman(...args: string[]): string {
  const result = proof(['podman', ...args])
  if (result.status !== 0) throw new Error(`podman ${args.join(' ')} → ${result.status}:\n${result.stderr}`)
  return result.stdout
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

/** The uid a host process runs as (the second field of /proc/<pid>/status's Uid line is the effective one). */
const effectiveUid = (pid: number) =>
  Number(/^Uid:\s+\d+\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])
const childrenOf = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)

/**
 * The Dockerfile built by buildah from this checkout (scripts/docker/proof.sh: base images made
 * from Debian's packages and the npm registry under the names its FROM lines use) and run by
 * podman as `docker run` would run it: its own entrypoint, user, environment and health check, a
 * named volume on /data, a PID namespace of its own (tini is PID 1), the host's network so that
 * it reaches the simulator on loopback. No Docker engine is involved: what Docker itself adds
 * (its daemon, its default seccomp profile) is not exercised here.
 */
describe(`the Docker image (linux/${ARCH}), built by buildah and run by podman`, () => {
  const volume = `wa-proof-${process.pid}`
  const names: string[] = []
  let sim: WhatsAppSimulator
  let control: ControlApi
  let files: MediaServer
  let base: string
  let key: string
  let sessionId: string
  let textId: string

  /**
   * `docker run -d` with the test's settings, on a port of its own (a connection fetch keeps alive
   * to the previous container must not be reused); answers its base URL once it listens.
   */
  async function run(name: string, onVolume = volume): Promise<string> {
    names.push(name)
    const port = await freePort()
    podman(
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      'host',
      '--volume',
      `${onVolume}:/data`,
      '--env',
      `PORT=${port}`,
      '--env',
      'HOST=127.0.0.1',
      '--env',
      `WA_SIMULATOR=${control.url}`,
      '--env',
      'ALLOW_PRIVATE_ADDRESSES=true',
      '--env',
      'LOG_LEVEL=info',
      IMAGE,
    )
    await pollUntil(
      () => podman('logs', name),
      (out) => out.includes('"msg":"listening"'),
      {
        timeoutMs: 60_000 * SLOWNESS,
        intervalMs: 250,
        what: `${name} to listen`,
      },
    )
    return `http://127.0.0.1:${port}`
  }

  beforeAll(async () => {
    const started = performance.now()
    // WA_DOCKER_REUSE=1 (while working on this test): the image built last time, if there is one.
    const reuse = process.env.WA_DOCKER_REUSE === '1' && proof(['podman', 'image', 'exists', IMAGE]).status === 0
    if (!reuse) {
      const built = proof(['build', ARCH], 3_600_000)
      if (built.status !== 0) throw new Error(`the image did not build:\n${built.stderr.slice(-6000)}`)
      console.log(`linux/${ARCH} image: bases and build in ${Math.round((performance.now() - started) / 1000)} s`)
    }
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
    sim.addContact(CONTACT)
    files = await startMediaServer()
  }, 3_700_000)

  afterAll(async () => {
    for (const name of names) proof(['podman', 'rm', '--force', '--time', '0', name])
    for (const name of [volume, `${volume}-cli`]) proof(['podman', 'volume', 'rm', '--force', name])
    await control?.stop()
    await sim?.stop()
    await files?.close()
  })

  it('is configured as documented: non-root user, /data volume, tini, health check, port', () => {
    const [image] = JSON.parse(podman('image', 'inspect', IMAGE)) as [any]
    console.log(`linux/${ARCH} image: ${(image.Size / 1024 / 1024).toFixed(1)} MiB`)
    expect(image.Architecture).toBe(ARCH)
    expect(image.Config.User).toBe('gateway:gateway')
    expect(Object.keys(image.Config.Volumes)).toEqual(['/data'])
    expect(Object.keys(image.Config.ExposedPorts)).toEqual(['3000/tcp'])
    expect(image.Config.Entrypoint).toEqual(['tini', '--', 'wa-gateway'])
    expect(image.Config.Cmd).toEqual(['serve'])
    expect(image.Config.Env).toContain('DATABASE_PATH=/data/gateway.db')
    expect(image.Healthcheck.Test).toEqual(['CMD', 'wa-gateway-healthcheck'])
  })

  it(
    'starts on an empty volume: prints the first key, answers /health, is healthy, runs as uid 10001 under tini',
    async () => {
      base = await run(`${volume}-a`)
      const logs = podman('logs', `${volume}-a`)
      expect(logs).toMatch(/API key \(shown only this once, store it now\): wag_[a-z2-7]{40}/)
      const health = await fetch(`${base}/health`)
      expect(health.status).toBe(200)
      expect(await health.json()).toMatchObject({ status: 'ok' })
      // What Docker runs every 30 s; exit status 0 is "healthy".
      expect(proof(['podman', 'healthcheck', 'run', `${volume}-a`]).status).toBe(0)

      const pid = Number(podman('inspect', '--format', '{{.State.Pid}}', `${volume}-a`).trim())
      expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('tini')
      const [gateway] = childrenOf(pid)
      // The last two: under qemu-user the interpreter's path comes first.
      expect(readFileSync(`/proc/${gateway}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(-2)).toEqual([
        'wa-gateway',
        'serve',
      ])
      expect(effectiveUid(pid)).toBe(GATEWAY_UID)
      expect(effectiveUid(gateway!)).toBe(GATEWAY_UID)
      expect(podman('exec', `${volume}-a`, 'sh', '-c', 'echo $$ $(id -u) && ls -ln /data').split('\n')[0]).toMatch(
        new RegExp(` ${GATEWAY_UID}$`),
      )
    },
    120_000 * SLOWNESS,
  )

  it(
    'makes a key with the CLI inside the container, links a session and sends a text and a voice note (ffmpeg inside)',
    async () => {
      key = podman('exec', `${volume}-a`, 'wa-gateway', 'key', 'create', 'default').trim()
      expect(key).toMatch(/^wag_[a-z2-7]{40}$/)
      const api = httpGateway(base, key, { pairingTimeoutMs: 30_000 * SLOWNESS })
      sessionId = await api.pairByQr(sim, 'docker', ACCOUNT)

      const inbox = sim.contact(CONTACT)
      const text = await api.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'from the container' })
      expect(text.status, JSON.stringify(text.body)).toBe(200)
      textId = text.body.messageId
      await inbox.waitForMessage((m) => m.id === textId, 30_000 * SLOWNESS)

      files.serve('voice.mp3', await fixtures.mp3(2), 'audio/mpeg')
      const voice = await api.post('/v1/message/audio', {
        sessionId,
        phone: CONTACT,
        audioUrl: files.url('voice.mp3'),
        ptt: true,
      })
      expect(voice.status, JSON.stringify(voice.body)).toBe(200)
      await inbox.waitForMessage((m) => m.id === voice.body.messageId, 30_000 * SLOWNESS)
      const media = await inbox.media(voice.body.messageId)
      expect(Buffer.from(media.bytes).subarray(0, 4).toString('latin1')).toBe('OggS')
    },
    180_000 * SLOWNESS,
  )

  it('backs up the live database into the volume with the CLI inside the container', () => {
    const done = podman('exec', `${volume}-a`, 'wa-gateway', 'backup', '/data/backups/proof.db')
    expect(done).toContain('backed up /data/gateway.db to /data/backups/proof.db')
    const listing = podman('exec', `${volume}-a`, 'ls', '-ln', '/data/backups/proof.db')
    expect(listing.split(/\s+/)[2]).toBe(String(GATEWAY_UID))
  })

  it(
    'stops cleanly on `docker stop` (SIGTERM to tini, handed to the gateway): exit status 0 within seconds',
    () => {
      const started = performance.now()
      podman('stop', '--time', '20', `${volume}-a`)
      const stopMs = performance.now() - started
      console.log(`linux/${ARCH} image: docker stop took ${Math.round(stopMs)} ms`)
      expect(podman('inspect', '--format', '{{.State.ExitCode}}', `${volume}-a`).trim()).toBe('0')
      const logs = podman('logs', `${volume}-a`)
      expect(logs).toContain('"signal":"SIGTERM"')
      expect(logs).toContain('"msg":"stopped"')
      expect(logs).not.toContain(key)
      expect(stopMs).toBeLessThan(10_000) // Docker's default grace period before SIGKILL
    },
    60_000 * SLOWNESS,
  )

  it(
    'keeps everything in the volume: a new container on it reconnects the session, knows the key and the message',
    async () => {
      podman('rm', `${volume}-a`)
      base = await run(`${volume}-b`)
      expect(podman('logs', `${volume}-b`)).not.toContain('First start')
      const api = httpGateway(base, key)
      await waitForSessionStatus(api, sessionId, 'connected', 60_000 * SLOWNESS)
      const stored = await api.get(`/v1/message/${textId}?sessionId=${sessionId}`)
      expect(stored.status, JSON.stringify(stored.body)).toBe(200)
      const text = await api.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'after the restart' })
      expect(text.status, JSON.stringify(text.body)).toBe(200)
      await sim.contact(CONTACT).waitForMessage((m) => m.id === text.body.messageId, 30_000 * SLOWNESS)
      podman('stop', '--time', '20', `${volume}-b`)
    },
    120_000 * SLOWNESS,
  )

  // vfs storage copies the image for every container: each `podman run` takes ~10–20 s here.
  it(
    'prints no key to the log when the workspace and its key were made with `docker run … workspace create` first',
    async () => {
      const cli = `${volume}-cli`
      const once = (...args: string[]) =>
        podman('run', '--rm', '--network', 'none', '--volume', `${cli}:/data`, IMAGE, ...args)
      expect(once('workspace', 'create', 'acme', '--plan', 'paid')).toMatch(/acme\s+paid/)
      const acmeKey = once('key', 'create', 'acme').trim()
      expect(acmeKey).toMatch(/^wag_[a-z2-7]{40}$/)
      const cBase = await run(`${volume}-c`, cli)
      expect(podman('logs', `${volume}-c`)).not.toMatch(/First start|wag_[a-z2-7]{40}/) // no key, whatever else a start tells
      const sessions = await httpGateway(cBase, acmeKey).get('/v1/session/all')
      expect(sessions.status).toBe(200)
      podman('stop', '--time', '20', `${volume}-c`)
    },
    180_000 * SLOWNESS,
  )
})
