import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readElfHeader } from '../support/elf'
import { type BinaryRig, checkCliCommands, checkSends, checkStops, startBinaryRig } from './support/binary-rig'

const ACCOUNT = '15550010002'
const CONTACT = '15551230002'

/**
 * Debian's qemu-user runs the AArch64 executable on this x64 machine (.ci/run installs it):
 * `-L` points its dynamic loader at libc6-arm64-cross's glibc (Bun links glibc dynamically), and
 * the binfmt_misc entry lets the kernel hand the ffmpeg the gateway spawns, also AArch64
 * (static), to qemu too. Emulated, everything is ~20–50× slower: the waits are scaled.
 */
const QEMU = '/usr/bin/qemu-aarch64'
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu'
const BINFMT = '/proc/sys/fs/binfmt_misc/qemu-aarch64'
const SLOWNESS = 6

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
 * the x64 one (./support/binary-rig.ts). Not real ARM hardware: user-mode emulation of the same
 * instructions on this CPU.
 */
describe('the single binary for linux-arm64, under qemu-user', () => {
  let rig: BinaryRig
  beforeAll(async () => {
    requireEmulation()
    rig = await startBinaryRig(
      {
        target: 'linux-arm64',
        file: 'wa-gateway-linux-arm64',
        launch: (binary, args) => ({ command: QEMU, args: ['-L', ARM64_SYSROOT, binary, ...args] }),
        slowness: SLOWNESS,
      },
      CONTACT,
    )
  }, 600_000)
  afterAll(() => rig?.close())

  it('is an ELF executable for AArch64', () => {
    expect(readElfHeader(rig.binary)).toEqual({ class: '64-bit', endian: 'LSB', machine: 'AArch64' })
  })

  it('runs the CLI commands: migrate, workspace create, key create', () => {
    const started = performance.now()
    checkCliCommands(rig)
    console.log(`arm64 binary under qemu: CLI commands in ${Math.round(performance.now() - started)} ms`)
  }, 360_000)

  it('serves /health, pairs against the simulator, sends a text, a voice note and a sticker made by its own arm64 ffmpeg', async () => {
    const started = performance.now()
    const running = await rig.serve()
    console.log(`arm64 binary under qemu: listening ${Math.round(performance.now() - started)} ms after spawn`)
    expect(await (await fetch(`${running.base}/health`)).json()).toMatchObject({ status: 'ok' })
    const sessionId = await running.api.pairByQr(rig.sim, 'binary-arm64', ACCOUNT)
    await checkSends(rig, running, { sessionId, contact: CONTACT, machine: 'AArch64', timeoutMs: 60_000 })
    await checkStops(rig, running.server)
    console.log(`arm64 binary under qemu: serve → stopped in ${Math.round(performance.now() - started)} ms`)
  }, 600_000)
})
