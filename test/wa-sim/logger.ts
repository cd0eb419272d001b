// The simulator logs through this tiny interface so tests can stay silent and the CLI can use stderr.
export interface Logger {
  trace(message: string): void
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
}

const noop = (): void => {}

export const silentLogger: Logger = { trace: noop, debug: noop, info: noop, warn: noop }

/** `silent` is above every level: nothing is written. */
const LEVELS = ['trace', 'debug', 'info', 'warn', 'silent'] as const
export type LogLevel = (typeof LEVELS)[number]

export const stderrLogger = (level: LogLevel = 'info'): Logger => {
  if (!LEVELS.includes(level)) throw new Error(`unknown log level "${level}"; one of ${LEVELS.join(', ')}`)
  const min = LEVELS.indexOf(level)
  const at = (name: LogLevel) =>
    LEVELS.indexOf(name) >= min ? (message: string) => process.stderr.write(`[wa-sim ${name}] ${message}\n`) : noop
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn') }
}
