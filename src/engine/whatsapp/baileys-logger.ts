import type { Logger } from '../../logger'

const ORDER = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']

/**
 * Baileys logs a lot at info. Its lines show at the operator's level from debug down, and
 * from warn up otherwise: its floor may be higher than the operator's level, never lower, so
 * LOG_LEVEL=error or silent also quiets Baileys.
 */
export function baileysLogLevel(operatorLevel: string): string {
  const operator = ORDER.indexOf(operatorLevel)
  if (operator < 0) return 'warn'
  return operator <= ORDER.indexOf('debug') ? operatorLevel : ORDER[Math.max(operator, ORDER.indexOf('warn'))]!
}

type LineLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error'

/** WhatsApp's stream error "restart required": sent after every successful pairing. */
const RESTART_REQUIRED = '515'

const streamErrorCode = (fields: unknown): string | undefined =>
  (fields as { fullErrorNode?: { attrs?: { code?: unknown } } } | null)?.fullErrorNode?.attrs?.code?.toString()

/**
 * The level a Baileys line is written at. Operators alert on error lines, so the protocol events
 * the gateway expects and handles are logged lower than Baileys logs them; every other line keeps
 * Baileys' level. One table, unit-tested line by line.
 */
export function baileysLineLevel(level: LineLevel, fields: unknown, message: string | undefined): LineLevel {
  switch (message) {
    case 'stream errored out':
      // Every stream error ends the connection; the close policy decides what follows and the
      // gateway logs it ('connection closed', info, with the code). 515 is the ordinary restart
      // after pairing; the others (logged out, replaced, server trouble) reach the session's status.
      return streamErrorCode(fields) === RESTART_REQUIRED ? 'debug' : 'info'
    case 'connection errored':
      // Baileys' info line at every close with an error, its stack attached ("Error: Stream
      // Errored (restart required)" after each pairing): the gateway's own line says it plainly.
      return 'debug'
    case 'no name present, ignoring presence update request...':
      // A freshly linked device has no push name yet; we never ask Baileys to send presence by name.
      return 'debug'
    case HISTORY_SYNC_DISABLED:
      // Said at every socket: the engine reads the history chunks itself, the bootstrap's LID
      // mappings included (socket/history-sync.ts), so what it warns of does not happen.
      return 'debug'
    default:
      return level
  }
}

const HISTORY_SYNC_DISABLED =
  '⚠️ DANGER: DISABLING ALL SYNC BY shouldSyncHistoryMsg PREVENTS BAILEYS FROM ACCESSING INITIAL LID MAPPINGS, LEADING TO INSTABILIY AND SESSION ERRORS'

/** The logger shape Baileys takes (its ILogger). */
export interface BaileysLogger {
  readonly level: string
  child(bindings: Record<string, unknown>): BaileysLogger
  trace(fields: unknown, message?: string): void
  debug(fields: unknown, message?: string): void
  info(fields: unknown, message?: string): void
  warn(fields: unknown, message?: string): void
  error(fields: unknown, message?: string): void
}

function relevelled(logger: Logger): BaileysLogger {
  const at =
    (level: LineLevel) =>
    (...args: [unknown, string?]) => {
      const message = typeof args[0] === 'string' ? args[0] : args[1]
      ;(logger[baileysLineLevel(level, args[0], message)] as (...a: unknown[]) => void)(...args)
    }
  return {
    get level() {
      return logger.level
    },
    child: (bindings) => relevelled(logger.child(bindings)),
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
}

export function baileysLogger(logger: Logger, operatorLevel: string): BaileysLogger {
  return relevelled(logger.child({ lib: 'baileys' }, { level: baileysLogLevel(operatorLevel) }))
}
