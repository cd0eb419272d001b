/**
 * What a heap snapshot holds, as DevTools' summary view groups it: self size by constructor
 * (or by node type for strings, arrays, code…), biggest first. `npx tsx test/bench/heap-summary.ts
 * file.heapsnapshot [top]`, or `summarizeHeapSnapshot` from a bench.
 */
import { readFileSync } from 'node:fs'

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } }
  nodes: number[]
  strings: string[]
}

export interface HeapGroup {
  name: string
  count: number
  selfMb: number
}

export function summarizeHeapSnapshot(path: string, top = 15): { totalMb: number; groups: HeapGroup[] } {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(path, 'utf8')) as Snapshot
  const fields = snapshot.meta.node_fields
  const types = snapshot.meta.node_types[0]
  const width = fields.length
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ]
  const groups = new Map<string, { count: number; size: number }>()
  let total = 0
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]!]!
    const size = nodes[i + sizeAt]!
    total += size
    const name = type === 'object' || type === 'closure' ? strings[nodes[i + nameAt]!]! : `(${type})`
    const group = groups.get(name) ?? { count: 0, size: 0 }
    group.count++
    group.size += size
    groups.set(name, group)
  }
  const mb = (bytes: number) => Math.round((bytes / 1024 ** 2) * 10) / 10
  return {
    totalMb: mb(total),
    groups: [...groups]
      .sort((a, b) => b[1].size - a[1].size)
      .slice(0, top)
      .map(([name, { count, size }]) => ({ name, count, selfMb: mb(size) })),
  }
}

/** What grew between two summaries (taken with `top` Infinity): the groups whose self size grew most. */
export function heapGrowth(
  before: { groups: HeapGroup[] },
  after: { groups: HeapGroup[] },
  top = 15,
): { name: string; countChange: number; selfMbChange: number }[] {
  const earlier = new Map(before.groups.map((g) => [g.name, g]))
  return after.groups
    .map((g) => ({
      name: g.name,
      countChange: g.count - (earlier.get(g.name)?.count ?? 0),
      selfMbChange: Math.round((g.selfMb - (earlier.get(g.name)?.selfMb ?? 0)) * 10) / 10,
    }))
    .sort((a, b) => b.selfMbChange - a.selfMbChange)
    .slice(0, top)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { totalMb, groups } = summarizeHeapSnapshot(process.argv[2]!, Number(process.argv[3] ?? 20))
  console.log(`${totalMb} MB in the snapshot`)
  for (const g of groups) console.log(`${String(g.selfMb).padStart(8)} MB ${String(g.count).padStart(9)}  ${g.name}`)
}
