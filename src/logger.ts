import pino, { type Logger } from 'pino'
import { batchedDestination } from './log-destination'

export type { Logger }

/**
 * Structured JSON logs, to stdout unless told otherwise, written asynchronously in batches
 * (see batchedDestination): one syscall per request line was a tenth of a busy gateway's CPU.
 * Credentials must never reach a log line: the paths below are censored wherever a caller passes headers or config objects by mistake.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const logger = pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'authorization',
          'headers.authorization',
          'headers["x-api-key"]',
          '*.apiKey',
          '*.token',
          '*.secret',
          '*.webhookSecret',
          'config.jwtSecret',
          'config.deploymentApiKey',
          'config.adminApiKey',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? batchedDestination(),
  )
  ownLoggers.add(logger)
  return logger
}

/** Loggers made by createLogger: their options, hence their lines' exact shape, are known (see perf/access-line.ts). */
const ownLoggers = new WeakSet<Logger>()

/** Whether createLogger made this logger. */
export const isOwnLogger = (logger: Logger): boolean => ownLoggers.has(logger)

export const silentLogger = (): Logger => pino({ level: 'silent' })
