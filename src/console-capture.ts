import { Console } from 'node:console'
import { Writable } from 'node:stream'
import { redactArgument, redactText } from './console-redaction'
import type { Logger } from './logger'

/** The console methods that print something. */
const PRINTING = [
  'log',
  'info',
  'debug',
  'trace',
  'warn',
  'error',
  'dir',
  'dirxml',
  'table',
  'assert',
  'count',
  'countReset',
  'group',
  'groupCollapsed',
  'groupEnd',
  'time',
  'timeEnd',
  'timeLog',
] as const

type ConsoleMethod = (...args: unknown[]) => void

/**
 * Routes the process's console into `logger`: every console.* call of a dependency (libsignal,
 * Baileys) and every process warning (a deprecation) becomes a debug line `{"lib":"console","method":…}` with its
 * arguments redacted (see console-redaction.ts), and is dropped unformatted below debug. stdout
 * then carries only the log's JSON lines, and no dependency can print a key to it.
 *
 * Process-wide, so only a process entry installs it, first thing (the serve command);
 * createGateway never does, as the console of an app that embeds the gateway is the app's. Such
 * an app may call it with its own logger at its start. Answers a function that puts it all back.
 */
export function routeConsoleToLogger(logger: Logger): () => void {
  const target = logger.child({ lib: 'console' })
  let method = ''
  // Console formats (util.format, groups, counters, tables) and writes synchronously to the sink,
  // so `method` is still the caller's when the line is logged.
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      target.debug({ method }, String(chunk).trimEnd())
      done()
    },
  })
  const formatter = new Console({ stdout: sink, stderr: sink, colorMode: false, ignoreErrors: false })
  const console = globalThis.console as unknown as Record<string, ConsoleMethod>
  const originals = new Map<string, ConsoleMethod>()
  for (const name of PRINTING) {
    const original = console[name]
    const format = (formatter as unknown as Record<string, ConsoleMethod>)[name]
    if (typeof original !== 'function' || typeof format !== 'function') continue
    originals.set(name, original)
    console[name] = (...args: unknown[]) => {
      if (!target.isLevelEnabled('debug')) return
      method = name
      format.apply(formatter, args.map(redactArgument))
    }
  }
  // Node and Bun print process warnings from a 'warning' listener of their own (Bun straight to
  // stderr): the listeners present now, the runtime's printer, give way to a log line.
  const printers = process.listeners('warning')
  for (const printer of printers) process.off('warning', printer)
  const onWarning = (warning: Error) => {
    if (target.isLevelEnabled('debug')) target.debug({ method: 'warning' }, redactText(String(warning)))
  }
  process.on('warning', onWarning)
  return () => {
    for (const [name, original] of originals) console[name] = original
    process.off('warning', onWarning)
    for (const printer of printers) process.on('warning', printer)
  }
}
