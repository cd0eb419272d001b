import pino, { type Logger } from 'pino'

export type { Logger }

/**
 * Structured JSON logs. Credentials must never reach a log line: the paths below are
 * censored wherever a caller passes headers or config objects by mistake.
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
    destination,
  )
}

export const silentLogger = (): Logger => pino({ level: 'silent' })
