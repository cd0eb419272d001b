import pino, { type Logger } from 'pino'

export type { Logger }

/** Stdout lines are held until this many bytes are pending (one write per batch under load)... */
const LOG_BATCH_BYTES = 4096
/** ...or for at most this long, so a quiet gateway's lines still appear promptly. */
const LOG_FLUSH_MS = 50

/**
 * Structured JSON logs, to stdout unless told otherwise. Stdout is written asynchronously
 * and in batches: lines are held until 4 KB are pending or 50 ms have passed, so a busy gateway
 * makes one write per few dozen request lines instead of one per line (a tenth of its CPU). pino flushes what is pending on exit.
 * Credentials must never reach a log line: the paths below are censored wherever a caller passes headers or config objects by mistake.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
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
    destination ?? pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS }),
  )
}

export const silentLogger = (): Logger => pino({ level: 'silent' })
