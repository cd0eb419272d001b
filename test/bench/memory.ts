/**
 * RSS with N connected idle sessions: the gateway (compiled, its own process) against N bare
 * Baileys sockets with an in-memory key store (`reference/bare-baileys.mjs`, its own process),
 * both against the simulator in a third process. Also both at 0 sessions (the bare process
 * has Baileys loaded; the gateway, lazily, has not).
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
  bareIdleMb: number
  gatewayIdleMb: number
  bareMb: number
  gatewayMb: number
}

async function bareBaileysRss(controlUrl: string, n: number): Promise<number> {
  const child = startNode(['test/bench/reference/bare-baileys.mjs', controlUrl, String(n)])
  try {
    await firstLine(child, /"msg":"ready"/)
    return await settledRss(child.pid!)
  } finally {
    await stop(child)
  }
}

export async function measureMemory(n: number): Promise<MemoryFigures> {
  const sim = await startSimulatorProcess()
  const dir = tempDir('bench-memory-')
  const compiled = await compileGateway()
  try {
    const bareIdleMb = await bareBaileysRss(sim.controlUrl, 0)
    const bareMb = await bareBaileysRss(sim.controlUrl, n)
    const databasePath = join(dir.path, 'gateway.db')
    const { loadKey } = await seedDatabaseFile(databasePath)
    const gateway = await startGatewayProcess(compiled.entry, { DATABASE_PATH: databasePath, WA_SIMULATOR: sim.controlUrl })
    try {
      const gatewayIdleMb = await settledRss(gateway.child.pid!)
      await connectSessions(gateway, loadKey, sim.controlUrl, 0, n)
      await waitConnected(gateway, loadKey, n, 120_000)
      return { sessions: n, bareIdleMb, gatewayIdleMb, bareMb, gatewayMb: await settledRss(gateway.child.pid!) }
    } finally {
      await gateway.stop()
    }
  } finally {
    compiled.cleanup()
    dir.cleanup()
    await sim.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureMemory(Number(process.argv[2] ?? 100)))
