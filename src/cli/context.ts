import { systemClock } from '../clock'
import { loadConfig } from '../config'
import { openDatabase } from '../db/database'
import { migrate } from '../db/migrate'
import { createLogger } from '../logger'
import type { CoreContext } from '../services/context'
import { printable } from './printable'

/** What every command starts from: validated config and a migrated database. */
export async function commandContext(): Promise<CoreContext> {
  const config = loadConfig(process.env)
  // Commands write their answers to stdout; logs go to stderr so answers can be piped.
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr)
  const db = await openDatabase(config.databasePath)
  migrate(db)
  return { config, db, logger, clock: systemClock }
}

/** Fixed-width table for list commands; every cell escaped for the terminal (see printable). */
export function printTable(rows: Record<string, unknown>[]): void {
  if (rows.length === 0) return void console.log('(none)')
  const columns = Object.keys(rows[0]!)
  const cell = (value: unknown) =>
    value instanceof Date ? value.toISOString() : value == null ? '-' : printable(String(value))
  const widths = columns.map((col) => Math.max(col.length, ...rows.map((r) => cell(r[col]).length)))
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  console.log(line(columns))
  for (const row of rows) console.log(line(columns.map((col) => cell(row[col]))))
}
