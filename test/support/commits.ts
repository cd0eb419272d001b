import type { GatewayDatabase } from '../../src/db/database'

type Run = (...args: unknown[]) => unknown
interface Client {
  inTransaction: boolean
  exec: (sql: string) => unknown
  prepare: (sql: string) => { source?: unknown }
  transaction: (fn: Run) => Run & Record<'deferred' | 'immediate', Run>
}

/**
 * Counts the commits on a database's connection from now on: the COMMITs of
 * perf/group-commit.ts (exec) and those of the driver's transactions. better-sqlite3 runs the
 * latter as prepared COMMIT statements, made once per connection, so they are counted where
 * statements run; bun:sqlite's are counted as its transactions begun outside another one.
 */
export function countCommits(db: GatewayDatabase): { count: number; stop(): void } {
  const client = db.$client as unknown as Client
  let counting = true
  const commits = {
    count: 0,
    stop: () => {
      counting = false
    },
  }
  const exec = client.exec.bind(client)
  client.exec = (sql) => {
    if (counting && /^COMMIT/i.test(sql)) commits.count++
    return exec(sql)
  }
  const probe = client.prepare('SELECT 1')
  if (typeof probe.source === 'string') {
    const statement = Object.getPrototypeOf(probe) as { run: Run; source: string }
    const run = statement.run
    statement.run = function (this: { source: string }, ...args: unknown[]) {
      if (counting && this.source === 'COMMIT') commits.count++
      return run.apply(this, args)
    }
    const stop = commits.stop
    commits.stop = () => {
      stop()
      statement.run = run
    }
    return commits
  }
  const transaction = client.transaction.bind(client)
  client.transaction = (fn) => {
    const wrapped = transaction(fn)
    const counted =
      (run: Run) =>
      (...args: unknown[]) => {
        if (counting && !client.inTransaction) commits.count++
        return run(...args)
      }
    return Object.assign(counted(wrapped), {
      deferred: counted(wrapped.deferred),
      immediate: counted(wrapped.immediate),
    })
  }
  return commits
}
