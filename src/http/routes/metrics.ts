import { createRoute, z } from '@hono/zod-openapi'
import type { PrometheusMetrics } from '../../metrics/prometheus'
import { errorResponses } from '../../openapi/route'
import { operatorBearer } from '../middleware/operator-bearer'
import { createRouter } from '../router'

export const metricsRoute = createRoute({
  operationId: 'metrics',
  method: 'get',
  path: '/metrics',
  tags: ['Metrics'],
  summary: 'Prometheus metrics of this gateway',
  description:
    'The Prometheus text exposition format: sessions by status, status changes by reason, sends and statuses, server-ack latency, inbound messages, webhook deliveries and latency, the outbox, contact checks, limits, HTTP requests by route pattern, and the process (RSS, CPU, event-loop lag). Only with METRICS_TOKEN set (else 404); no label carries a session id, phone number, text, key or token.',
  security: [{ metricsBearer: [] }],
  responses: {
    200: {
      description: 'The metrics, as Prometheus scrapes them',
      content: { 'text/plain': { schema: z.string() } },
    },
    ...errorResponses([]),
  },
})

/** GET /metrics behind METRICS_TOKEN (its own bearer, not a workspace's): mounted only when the operator set it. */
export function metricsRoutes(prometheus: PrometheusMetrics, token: string) {
  const router = createRouter()
  router.use('/metrics', operatorBearer(token, { secret: '<METRICS_TOKEN>', invalid: 'Invalid metrics token' }))
  return router.openapi(metricsRoute, async (c) => {
    const { contentType, body } = await prometheus.scrape()
    return c.text(body, 200, { 'Content-Type': contentType })
  })
}
