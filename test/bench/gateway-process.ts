/**
 * The gateway in its own process, compiled to JavaScript as `npm start` runs it, on a seeded
 * database and pointed at a simulator process; helpers to connect sessions through the API
 * (the simulated phone scans each QR) and to wait until they are connected.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { ChildProcess } from 'node:child_process'
import { drain, listeningPort, startNode, stop } from './processes'

export interface GatewayProcess {
  child: ChildProcess
  port: number
  api(path: string, key: string, init?: RequestInit): Promise<Response>
  stop(): Promise<void>
}

/** `nodeArgs` go before the entry (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
export async function startGatewayProcess(
  entry: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<GatewayProcess> {
  const child = startNode([...nodeArgs, entry, 'serve'], {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info', // 'listening' (with the port) is an info line; the pipe is drained
    RATE_LIMIT_PER_MINUTE: '1000000000',
    PAID_MAX_SESSIONS: '100000',
    ...env,
  })
  const port = await listeningPort(child)
  drain(child)
  return {
    child,
    port,
    api: (path, key, init = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      }),
    stop: () => stop(child),
  }
}

/** Connects sessions `from`..`to-1` in workspace `key`, `parallel` at a time; the simulator scans each QR. */
export async function connectSessions(
  gateway: GatewayProcess,
  key: string,
  controlUrl: string,
  from: number,
  to: number,
  parallel = 10,
): Promise<void> {
  let next = from
  const worker = async () => {
    while (next < to) {
      const i = next++
      const response = await gateway.api('/v1/session/connect', key, {
        method: 'POST',
        body: JSON.stringify({ sessionName: `load-${i}`, webhookUrl: 'https://hooks.invalid/bench' }),
      })
      if (response.status !== 200) throw new Error(`connect ${i}: ${response.status} ${await response.text()}`)
      const { qrCode } = (await response.json()) as { qrCode: string }
      const scan = await fetch(`${controlUrl}/scan`, { method: 'POST', body: JSON.stringify({ qr: qrCode }) })
      if (scan.status !== 200) throw new Error(`scan ${i}: ${scan.status} ${await scan.text()}`)
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
}

export async function connectedCount(gateway: GatewayProcess, key: string): Promise<number> {
  const { sessions } = (await (await gateway.api('/v1/session/all', key)).json()) as {
    sessions: { connected: boolean }[]
  }
  return sessions.filter((s) => s.connected).length
}

export async function waitConnected(
  gateway: GatewayProcess,
  key: string,
  count: number,
  timeoutMs: number,
): Promise<number> {
  const started = performance.now()
  for (;;) {
    if ((await connectedCount(gateway, key)) >= count) return performance.now() - started
    if (performance.now() - started > timeoutMs)
      throw new Error(`only ${await connectedCount(gateway, key)} of ${count} sessions connected after ${timeoutMs} ms`)
    await sleep(250)
  }
}
