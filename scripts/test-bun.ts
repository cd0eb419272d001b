/**
 * The end-to-end suites (sessions, contact checks, messages, chats, groups, channels, webhooks, metrics, Chatwoot, the panel's files, the event socket, the background checkpointer) under Bun, on bun:sqlite: each file
 * in its own `bun test` process, as vitest's forks pool runs them on Node (Baileys and the
 * simulator keep sockets and timers), two at a time. The suites import from 'vitest'; bun test
 * maps that to bun:test, and test/support/bun-preload.ts adds what it lacks.
 * Why not vitest itself under Bun: `bun --bun vitest` fails while loading zod in vitest's module
 * runner ("undefined is not an object (evaluating 'z.coerce')").
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const SUITES = [
  'test/services/sessions',
  'test/services/contacts',
  'test/services/messages',
  'test/services/chats',
  'test/services/calls',
  'test/services/status',
  'test/services/channels',
  'test/services/labels',
  'test/services/history',
  'test/services/media',
  'test/services/groups',
  'test/services/webhooks',
  'test/webhooks',
  'test/metrics',
  'test/integrations/chatwoot',
  'test/panel',
  'test/http/routes/v1/events/socket',
  'test/perf/checkpointer',
]
const CONCURRENCY = 2
const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : SUITES.flatMap((dir) =>
        // Recursive: a suite may be split in subfolders (test/services/messages/send/, ...).
        readdirSync(dir, { recursive: true, encoding: 'utf8' })
          // *.node.test.ts reach into Node-only modules (better-sqlite3 directly): vitest runs them.
          .filter((f) => f.endsWith('.test.ts') && !f.endsWith('.node.test.ts'))
          .sort()
          .map((f) => `./${join(dir, f)}`),
      )

const failed: string[] = []
const queue = [...files]
const started = performance.now()

async function worker(): Promise<void> {
  for (let file = queue.shift(); file; file = queue.shift()) {
    const child = Bun.spawn([process.execPath, 'test', '--timeout', '30000', file], { stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ])
    const summary = /(\d+) pass\s+(\d+) fail/.exec(err)
    console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${file} ${summary ? `(${summary[1]} pass, ${summary[2]} fail)` : ''}`)
    if (code !== 0) {
      failed.push(file)
      console.log(out + err)
    }
  }
}

await Promise.all(Array.from({ length: CONCURRENCY }, worker))
console.log(
  `\nBun ${Bun.version}: ${files.length - failed.length}/${files.length} files passed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
)
if (failed.length > 0) {
  console.log(`failed: ${failed.join(' ')}`)
  process.exit(1)
}
