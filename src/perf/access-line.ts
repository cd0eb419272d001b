import pino from 'pino'
import { isOwnLogger, type Logger } from '../logger'

export interface AccessLine {
  requestId: string
  method: string
  path: string
  status: number
  durationMs: number
}

/**
 * An optimisation (bench: authed `GET /v1/session/all` req/s, `test/bench/throughput.ts`).
 *
 * The writer of a request's access line: `request` at info, `request failed` at error for a 5xx.
 * On a logger from createLogger the info line is written as the JSON pino would write, field
 * for field, without pino's generic serializer: that took a tenth of a small request's CPU, for
 * the busiest line there is. Failures, and every line of any other logger (an embedding app's,
 * a multistream routing by level), are ordinary pino calls.
 */
export function accessLogWriter(logger: Logger): (line: AccessLine) => void {
  // No redaction pass: the fields are fixed and hold no secret.
  const lines = logger.child({}, { redact: [] })
  const viaPino = (line: AccessLine) =>
    line.status >= 500 ? lines.error(line, 'request failed') : lines.info(line, 'request')
  // Only our loggers are looked into: the Worker's logger is not pino, and pino's browser build (bundled there) has no symbols.
  const stream = isOwnLogger(logger)
    ? (logger as unknown as Record<symbol, pino.DestinationStream & Record<symbol, unknown>>)[pino.symbols.streamSym]
    : undefined
  if (!stream || stream[pino.symbols.needsMetadataGsym]) return viaPino
  const info = pino.levels.values.info!
  return (line) => {
    if (line.status >= 500) return viaPino(line)
    if (!logger.isLevelEnabled('info')) return
    stream.write(
      `{"level":${info},"time":${Date.now()},"requestId":${JSON.stringify(line.requestId)},` +
        `"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},` +
        `"status":${line.status},"durationMs":${line.durationMs},"msg":"request"}\n`,
    )
  }
}
