/**
 * RSS with N connected idle sessions: the gateway (compiled, its own process) against N bare
 * Baileys sockets with an in-memory key store (`reference/bare-baileys.mjs`, its own process),
 * both against the simulator in a third process. Also both at 0 sessions (the bare process
 * has Baileys loaded; the gateway, lazily, has not).
 *
 * Idle means `idleMs` after the last session connected: 3 s after it, both processes still hold
 * much of the pairings' garbage (hundreds of pre-keys each), and when V8 returns it (its memory
 * reducer, within about a minute of idling, in steps) is a matter of timing: one build of the
 * gateway measured 232 to 299 MB 3 s after connecting 100 sessions, and 186 MB a minute later.
 * Both figures are reported; the idle one is the figure.
 */
import { join } from 'node:path'
import { compileGateway } from './build'
import { connectSessions, startGatewayProcess, waitConnected } from './gateway-process'
import { firstLine, settledRss, startNode, stop } from './processes'
import { seedDatabaseFile } from './seed'
import { startSimulatorProcess } from './simulator-process'
import { tempDir } from '../support/temp-dir'

export interface MemoryFigures {
  sessions: number
  idleSeconds: number
  /** 0 sessions. */
  bareIdleMb: number
  gatewayIdleMb: number
  /** N sessions, 3 s after the last connected. */
  bareConnectedMb: number
  gatewayConnectedMb: number
  /** N sessions, `idleSeconds` after the last connected. */
  bareMb: number
  gatewayMb: number
}

/** RSS 3 s after the last session connected, then once idle for `idleMs`. */
async function connectedAndIdleRss(pid: number, idleMs: number): Promise<[number, number]> {
  const started = performance.now()
  const connected = await settledRss(pid)
  return [connected, await settledRss(pid, Math.max(0, idleMs - (performance.now() - started)))]
}

async function bareBaileysRss(controlUrl: string, n: number, idleMs: number): Promise<[number, number]> {
  const child = startNode(['test/bench/reference/bare-baileys.mjs', controlUrl, String(n)])
  try {
    await firstLine(child, /"msg":"ready"/)
    return await connectedAndIdleRss(child.pid!, idleMs)
  } finally {
    await stop(child)
  }
}

export async function measureMemory(n: number, { idleMs = 90_000 } = {}): Promise<MemoryFigures> {
  const sim = await startSimulatorProcess()
  const dir = tempDir('bench-memory-')
  const compiled = await compileGateway()
  try {
    const [bareIdleMb] = await bareBaileysRss(sim.controlUrl, 0, 0)
    const [bareConnectedMb, bareMb] = await bareBaileysRss(sim.controlUrl, n, idleMs)
    const databasePath = join(dir.path, 'gateway.db')
    const { loadKey } = await seedDatabaseFile(databasePath)
    const gateway = await startGatewayProcess(compiled.entry, {
      DATABASE_PATH: databasePath,
      WA_SIMULATOR: sim.controlUrl,
    })
    try {
      const gatewayIdleMb = await settledRss(gateway.child.pid!)
      await connectSessions(gateway, loadKey, sim.controlUrl, 0, n)
      await waitConnected(gateway, loadKey, n, 120_000)
      const [gatewayConnectedMb, gatewayMb] = await connectedAndIdleRss(gateway.child.pid!, idleMs)
      return {
        sessions: n,
        idleSeconds: idleMs / 1000,
        bareIdleMb,
        gatewayIdleMb,
        bareConnectedMb,
        gatewayConnectedMb,
        bareMb,
        gatewayMb,
      }
    } finally {
      await gateway.stop()
    }
  } finally {
    compiled.cleanup()
    dir.cleanup()
    await sim.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await measureMemory(Number(process.argv[2] ?? 100), { idleMs: Number(process.argv[3] ?? 90) * 1000 }))
