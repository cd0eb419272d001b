/**
 * The top entries of a .cpuprofile (--cpu-prof, or sends.ts --cpu-prof-dir): self time and
 * inclusive time per function (name, file, line), as shares of the sampled time.
 * `tsx test/bench/profile-top.ts <file.cpuprofile> [count]`
 */
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

export function profileTop(profile: Profile, count = 20) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const name = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame
    const file = url
      .replace(/^file:\/\//, '')
      .replace(/.*\/node_modules\//, '~/')
      .replace(/.*\/(src|test)\//, '$1/')
    return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`
  }
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0
    total += us
    const leaf = byId.get(id)!
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + us)
    // Each function once per sample, however often it recurs on the stack.
    const seen = new Set<string>()
    for (let node: ProfileNode | undefined = leaf; node; node = byId.get(parent.get(node.id) ?? -1)) {
      const key = name(node)
      if (seen.has(key)) continue
      seen.add(key)
      inclusive.set(key, (inclusive.get(key) ?? 0) + us)
    }
  })
  const top = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([fn, us]) => ({ fn, ms: Math.round(us / 1000), share: Number((us / total).toFixed(3)) }))
  return { totalMs: Math.round(total / 1000), self: top(self), inclusive: top(inclusive) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, count = '25'] = process.argv.slice(2)
  const { totalMs, self, inclusive } = profileTop(JSON.parse(readFileSync(file!, 'utf8')) as Profile, Number(count))
  const print = (rows: typeof self) => {
    for (const row of rows)
      console.log(`${(row.share * 100).toFixed(1).padStart(5)}%  ${String(row.ms).padStart(6)} ms  ${row.fn}`)
  }
  console.log(`sampled ${totalMs} ms\nself time:`)
  print(self)
  console.log('inclusive:')
  print(inclusive)
}
