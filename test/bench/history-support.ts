/**
 * What the history benches share: linking a session that asks for history (the simulated phone
 * scans the QR as a given number, so its seeded history is what it sends), the gateway's RSS
 * sampled for its peak, a steady rate of authed API requests whose latency is read at the end,
 * and reads of the gateway's SQLite file (what was stored, when each chunk was reported).
 */
import autocannon from 'autocannon'
import { queryFile } from '../support/sqlite-file'
import type { GatewayProcess } from './gateway-process'
import { percentile, rssMb } from './processes'

export interface HistoryRequest {
  days: number
  maxMessages?: number
}

/**
 * Asks the gateway for a QR of a new session with history on; `scan` (called when wanted) has
 * `phone` scan it. Split so a bench can start its clock at the first scan, not at the connects.
 */
export async function connectWithHistory(
  gateway: GatewayProcess,
  key: string,
  controlUrl: string,
  sessionName: string,
  phone: string,
  history: HistoryRequest,
): Promise<{ sessionId: string; scan(): Promise<void> }> {
  const response = await gateway.api('/v1/session/connect', key, {
    method: 'POST',
    body: JSON.stringify({ sessionName, history }),
  })
  if (response.status !== 200) throw new Error(`connect ${sessionName}: ${response.status} ${await response.text()}`)
  const { qrCode, sessionId } = (await response.json()) as { qrCode: string; sessionId: string }
  return {
    sessionId,
    async scan() {
      const scan = await fetch(`${controlUrl}/scan`, { method: 'POST', body: JSON.stringify({ qr: qrCode, phone }) })
      if (scan.status !== 200) throw new Error(`scan ${sessionName}: ${scan.status} ${await scan.text()}`)
    },
  }
}

/** The process's RSS read every `everyMs`; `stop()` answers the highest seen. */
export function sampleRssPeak(pid: number, everyMs = 50): { stop(): number } {
  let peak = rssMb(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid))
  }, everyMs)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(peak, rssMb(pid))
    },
  }
}

export interface LoadFigures {
  p99Ms: number
  p50Ms: number
  maxMs: number
  requests: number
  /** Answers other than 2xx, plus connection errors and timeouts. */
  failures: number
}

/** One answer: when it arrived (epoch ms) and how long it took. */
export interface Answer {
  at: number
  ms: number
}

/** The latencies of the answers that arrived within [from, to) (epoch ms). */
export function latencies(answers: Answer[], from = 0, to = Number.POSITIVE_INFINITY): LoadFigures {
  const sorted = answers
    .filter((a) => a.at >= from && a.at < to)
    .map((a) => a.ms)
    .sort((a, b) => a - b)
  const round = (ms: number | undefined) => Math.round((ms ?? 0) * 10) / 10
  return {
    p99Ms: round(sorted.length ? percentile(sorted, 99) : 0),
    p50Ms: round(sorted.length ? percentile(sorted, 50) : 0),
    maxMs: round(sorted.at(-1)),
    requests: sorted.length,
    failures: 0,
  }
}

/**
 * `rate` authed GETs a second of `path` until stopped (autocannon, so the client's own cost
 * stays small on the shared cores); `stop()` answers their latencies, and every answer's time
 * so a bench can split them by phase.
 */
export function steadyLoad(
  port: number,
  key: string,
  path: string,
  rate = 50,
): { stop(): Promise<LoadFigures & { answers: Answer[] }> } {
  let finished: (result: autocannon.Result) => void
  let failed: (error: unknown) => void
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve
    failed = reject
  })
  const run = autocannon(
    {
      url: `http://127.0.0.1:${port}${path}`,
      headers: { authorization: `Bearer ${key}` },
      connections: 4,
      overallRate: rate,
      duration: 3_600,
    },
    (error, answer) => (error ? failed(error) : finished(answer)),
  )
  const answers: Answer[] = []
  run.on('response', (_client, _status, _bytes, ms) => answers.push({ at: Date.now(), ms }))
  return {
    async stop() {
      run.stop()
      const { non2xx, errors, timeouts } = await result
      return { ...latencies(answers), failures: non2xx + errors + timeouts, answers }
    },
  }
}

/** The same load for `seconds` on the gateway as it is (the reference). */
export async function loadFor(port: number, key: string, path: string, seconds: number): Promise<LoadFigures> {
  const load = steadyLoad(port, key, path)
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  const { answers: _, ...figures } = await load.stop()
  return figures
}

export const countRows = (databasePath: string, sql: string, ...params: unknown[]): number =>
  queryFile<{ n: number }>(databasePath, sql, ...params)[0]!.n
