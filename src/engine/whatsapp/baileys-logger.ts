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

export function baileysLogger(logger: Logger, operatorLevel: string): Logger {
  return logger.child({ lib: 'baileys' }, { level: baileysLogLevel(operatorLevel) })
}
