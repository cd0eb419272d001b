import { join } from 'node:path'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { EventBus } from '../../src/events/bus'
import { createPrometheusMetrics } from '../../src/metrics/prometheus'
import { tempDir } from '../support/temp-dir'

/** The registry on its own: labels stay bounded whatever reasons arrive from outside. */
describe('Prometheus metrics', () => {
  const dir = tempDir()
  let database: GatewayDatabase
  beforeAll(async () => {
    database = await openDatabase(join(dir.path, 'metrics.db'))
    migrate(database)
  })
  afterAll(() => {
    closeDatabase(database)
    dir.cleanup()
  })

  it('keeps at most 64 reasons per family and says other for the rest and for anything malformed', async () => {
    const events = new EventBus(() => {})
    const prometheus = createPrometheusMetrics({ db: database, events })
    const { metrics } = prometheus
    for (let i = 0; i < 500; i++) metrics.messageStatus('s', `m${i}`, 'sent', 'failed', `error_${i}`)
    for (const hostile of ['Has Spaces', 'x'.repeat(100), '15551230001@s.whatsapp.net', 'error_1\n# HELP']) {
      metrics.messageStatus('s', 'm', 'sent', 'failed', hostile)
    }
    metrics.messageStatus('s', 'm', 'sent', 'failed', 'error_3') // seen before: still its own
    const parsed = parsePrometheusTextFormat((await prometheus.scrape()).body) as {
      name: string
      metrics: { labels: Record<string, string>; value: string }[]
    }[]
    const failed = parsed.find((f) => f.name === 'wa_message_statuses_total')!.metrics
    const reasons = failed.map((m) => m.labels.reason)
    expect(reasons).toHaveLength(65)
    expect(reasons).toContain('other')
    expect(Number(failed.find((m) => m.labels.reason === 'other')!.value)).toBe(500 - 64 + 4)
    expect(Number(failed.find((m) => m.labels.reason === 'error_3')!.value)).toBe(2)
    prometheus.close()
  })
})
