import type { Logger } from '../logger'

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const
type Level = keyof typeof LEVELS

const plain = (value: unknown) =>
  value instanceof Error
    ? { message: value.message, stack: value.stack?.split('\n').slice(0, 6).join(' | ') }
    : typeof value === 'bigint'
      ? String(value)
      : value

/**
 * pino's calling shape over console.log, one JSON line per entry (Workers Logs index JSON).
 * pino itself does not fit a Worker: its redaction compiles code with `new Function`, which
 * workerd refuses at request time. Credentials are never passed to the logger in the first place.
 */
export function createEdgeLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  const threshold = LEVELS[level as Level] ?? LEVELS.info
  const write = (name: Exclude<Level, 'silent'>) => (first?: unknown, second?: unknown) => {
    if (LEVELS[name] < threshold) return
    const fields = typeof first === 'object' && first !== null ? first : {}
    const msg = typeof first === 'string' ? first : second
    let line: string
    try {
      line = JSON.stringify({ level: name, time: Date.now(), ...bindings, ...fields, msg }, (_key, value) =>
        plain(value),
      )
    } catch {
      line = JSON.stringify({ level: name, msg })
    }
    console.log(line)
  }
  const logger = {
    level,
    child: (more: Record<string, unknown>, options?: { level?: string }) =>
      createEdgeLogger(options?.level ?? level, { ...bindings, ...more }),
    isLevelEnabled: (name: string) => (LEVELS[name as Level] ?? 0) >= threshold,
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    fatal: write('fatal'),
    silent: () => {},
  }
  return logger as unknown as Logger
}
