/** `npm run bench [-- --sessions 10,50]`: prints the gateway's figures. */
import { parseArgs } from 'node:util'
import { measureMemory } from './memory'

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '10,50' } } })
const steps = values.sessions.split(',').map(Number).filter((n) => n > 0).sort((a, b) => a - b)

console.log(`Gateway memory with N connected sessions against the simulator (Node ${process.version})`)
const rows = await measureMemory(steps)
console.log('sessions  rss MB  per session MB  connect s')
for (const row of rows) {
  console.log(
    `${String(row.sessions).padStart(8)}  ${row.rssMb.toFixed(1).padStart(6)}  ${row.perSessionMb.toFixed(2).padStart(14)}  ${row.connectSeconds.toFixed(1).padStart(9)}`,
  )
}
console.log(JSON.stringify({ benchmark: 'memory', rows }))
