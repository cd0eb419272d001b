import { Gauge, type Registry } from 'prom-client'

/**
 * An optimisation (bench: the `/metrics` scrape at 5,000 sessions, `test/bench/scale.ts`).
 *
 * prom-client's defaults count libuv handles (`nodejs_active_handles` by type and
 * `nodejs_active_handles_total`) and resources (`nodejs_active_resources` by type and
 * `nodejs_active_resources_total`) with one walk of the process's handles or resources per
 * gauge: two walks each where one answers both. At 5,000 sessions a handle walk took ~8 ms of
 * the scrape (the event loop's time). The four gauges keep their names, help and labels; each
 * pair shares one walk per scrape.
 */
export function shareHandleWalks(registry: Registry): void {
  const node = process as { _getActiveHandles?: () => unknown[] }
  if (typeof node._getActiveHandles === 'function') {
    const handles = oncePerScrape(() => node._getActiveHandles?.() ?? [])
    replaceGauge(registry, 'nodejs_active_handles', ['type'], function collect() {
      setByType(this, countByConstructor(handles()))
    })
    replaceGauge(registry, 'nodejs_active_handles_total', [], function collect() {
      this.set(handles().length)
    })
  }
  if (typeof process.getActiveResourcesInfo === 'function') {
    const resources = oncePerScrape(() => process.getActiveResourcesInfo())
    replaceGauge(registry, 'nodejs_active_resources', ['type'], function collect() {
      setByType(this, countByName(resources()))
    })
    replaceGauge(registry, 'nodejs_active_resources_total', [], function collect() {
      this.set(resources().length)
    })
  }
}

/**
 * `read()`'s answer shared by the gauges of one scrape: prom-client runs every collect of a
 * scrape synchronously, one after the other, before any microtask; the next scrape reads anew.
 */
function oncePerScrape<T>(read: () => T): () => T {
  let value: T | undefined
  return () => {
    if (value === undefined) {
      value = read()
      queueMicrotask(() => {
        value = undefined
      })
    }
    return value
  }
}

/** Swaps a default gauge for one that collects through `collect`, with the same name and help; absent ones are left absent. */
function replaceGauge(
  registry: Registry,
  name: string,
  labelNames: string[],
  collect: (this: Gauge<string>) => void,
): void {
  const existing = registry.getSingleMetric(name)
  if (!existing) return
  const help = (existing as unknown as { help: string }).help
  registry.removeSingleMetric(name)
  new Gauge({ name, help, labelNames, registers: [registry], collect })
}

function setByType(gauge: Gauge<string>, counts: Map<string, number>): void {
  gauge.reset()
  for (const [type, n] of counts) gauge.set({ type }, n)
}

/** As prom-client counts handles: by constructor name, skipping what has none. */
function countByConstructor(items: readonly unknown[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const item of items) {
    const type = (item as { constructor?: { name: string } } | null)?.constructor?.name
    if (type === undefined) continue
    counts.set(type, (counts.get(type) ?? 0) + 1)
  }
  return counts
}

function countByName(names: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1)
  return counts
}
