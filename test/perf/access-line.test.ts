import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/logger'
import { accessLogWriter, type AccessLine } from '../../src/perf/access-line'

const capture = () => {
  const written: string[] = []
  return { written, stream: { write: (text: string) => void written.push(text) } }
}

const line: AccessLine = {
  requestId: 'b7c1f0e2-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
  method: 'GET',
  path: '/v1/message/"quoted"\\back\u00e9\u0001',
  status: 200,
  durationMs: 0.4,
}

describe('access log lines', () => {
  it('are, on the gateway’s own logger, the JSON pino writes for the same call, key for key', () => {
    const fast = capture()
    accessLogWriter(createLogger('info', fast.stream))(line)
    const viaPino = capture()
    createLogger('info', viaPino.stream).info(line, 'request')

    const [written, expected] = [fast.written, viaPino.written].map((texts) => {
      expect(texts).toHaveLength(1)
      expect(texts[0]!.endsWith('}\n')).toBe(true)
      const { time, ...rest } = JSON.parse(texts[0]!) as Record<string, unknown>
      expect(typeof time).toBe('number')
      return rest
    })
    expect(written).toEqual(expected)
    expect(Object.keys(written!)).toEqual(Object.keys(expected!))
  })

  it('follow the logger’s level, also when it changes', () => {
    const out = capture()
    const logger = createLogger('warn', out.stream)
    const write = accessLogWriter(logger)
    write(line)
    expect(out.written).toEqual([])
    logger.level = 'info'
    write(line)
    expect(out.written).toHaveLength(1)
  })

  it('go through pino on any other logger, in that logger’s own format', () => {
    const out = capture()
    const embedding = pino({ messageKey: 'message', base: { app: 'host' } }, out.stream)
    accessLogWriter(embedding)(line)
    expect(JSON.parse(out.written[0]!)).toMatchObject({ app: 'host', message: 'request', path: line.path, status: 200 })
  })

  it('are errors for a 5xx, on any logger', () => {
    type Stream = ReturnType<typeof capture>['stream']
    const own = (stream: Stream) => createLogger('info', stream)
    const embedding = (stream: Stream) => pino({}, stream)
    for (const make of [own, embedding]) {
      const out = capture()
      accessLogWriter(make(out.stream))({ ...line, status: 503 })
      expect(JSON.parse(out.written[0]!)).toMatchObject({
        level: 50,
        msg: 'request failed',
        status: 503,
        requestId: line.requestId,
      })
    }
  })
})
