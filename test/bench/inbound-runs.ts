/**
 * What a receiver of the inbound bench counts, run by run: each text "<run> <index> <epoch ms>"
 * (test/wa-sim/control-bench.ts) once per message id, its latency (arrival − the time in the
 * text; same machine, same clock), and per stream (a session) whether the index only grew. Shared
 * by the webhook receiver (inbound-sink.ts) and the bare Baileys reference (bare-inbound.ts).
 */

/** A bench text's parts, from the text alone or from a JSON body quoting it. */
export const BENCH_TEXT = /([a-z]+) (\d+) (\d{13})/

export interface RunReport {
  unique: number
  duplicates: number
  outOfOrder: number
  firstAt: number
  lastAt: number
  p50Ms: number
  p99Ms: number
  maxMs: number
}

interface Run {
  ids: Set<string>
  duplicates: number
  outOfOrder: number
  latencies: number[]
  firstAt: number
  lastAt: number
  lastIndex: Map<string, number>
}

export function inboundRuns() {
  const runs = new Map<string, Run>()
  const runOf = (name: string): Run => {
    let run = runs.get(name)
    if (!run) {
      run = { ids: new Set(), duplicates: 0, outOfOrder: 0, latencies: [], firstAt: 0, lastAt: 0, lastIndex: new Map() }
      runs.set(name, run)
    }
    return run
  }
  return {
    /** A message `id` of `stream` arrived `at` (epoch ms) with the bench text matched by BENCH_TEXT. */
    count(stream: string, id: string, [, name, index, sentAt]: RegExpExecArray, at: number): void {
      const run = runOf(name!)
      if (run.ids.has(id)) return void run.duplicates++
      run.ids.add(id)
      if (Number(index) <= (run.lastIndex.get(stream) ?? -1)) run.outOfOrder++
      run.lastIndex.set(stream, Number(index))
      run.latencies.push(at - Number(sentAt))
      if (!run.firstAt) run.firstAt = at
      run.lastAt = at
    },
    report(name: string): RunReport {
      const run = runOf(name)
      const sorted = [...run.latencies].sort((a, b) => a - b)
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
      return {
        unique: run.ids.size,
        duplicates: run.duplicates,
        outOfOrder: run.outOfOrder,
        firstAt: run.firstAt,
        lastAt: run.lastAt,
        p50Ms: at(0.5),
        p99Ms: at(0.99),
        maxMs: sorted.at(-1) ?? 0,
      }
    },
  }
}
